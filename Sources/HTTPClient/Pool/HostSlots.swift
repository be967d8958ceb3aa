/// One host's share of a `ConnectionPool` as a value: its idle connections, how many slots are
/// open (idle and in use), and the requests waiting. Each event (a lease asked for, a slot
/// released, an idle connection closed by its server, the pool emptied) changes it and returns
/// what the caller must do (deliver, close, park, mark), so every transition is tested without a
/// socket or a loop (`HostSlotsTests`). The pool calls it under its lock and acts outside it.
struct HostSlots<Idle: AnyObject, Socket, Waiter> {
    /// Kept-alive connections nobody uses, oldest first.
    var idle: [Idle] = []
    /// Slots taken: connections idle, in use, or being opened.
    var open = 0
    /// Requests waiting for a connection or a slot, in arrival order.
    var waiters = WaiterQueue<Waiter>()

    /// What `lease` grants.
    enum Grant {
        /// The most recently parked idle connection (the caller marks it taken).
        case idle(Idle)
        /// A free slot: the caller connects itself.
        case fresh
    }

    /// What a waiter receives from `release`.
    enum Handoff {
        /// The released connection, kept alive.
        case handedOver(Socket)
        /// The released slot: the waiter connects itself.
        case fresh
    }

    /// An idle connection (the most recently parked one that `preferred` accepts, else the most
    /// recently parked one), else a free slot; nil (after queuing `waiter`, when there is one)
    /// when neither exists.
    /// Waiters queue in the order `precedes` gives them (arrival order by default).
    mutating func lease(limit: Int, orQueue waiter: Waiter?, preferring preferred: (Idle) -> Bool = { _ in true },
                        precedes: (Waiter, Waiter) -> Bool = { _, _ in false }) -> Grant? {
        if let index = idle.lastIndex(where: preferred) {
            return .idle(idle.remove(at: index))
        }
        if let parked = idle.popLast() {
            return .idle(parked)
        }
        if open < limit {
            open += 1
            return .fresh
        }
        if let waiter { waiters.insert(waiter, by: precedes) }
        return nil
    }

    /// Takes back a slot: returns the next waiter with what it receives, the socket to close,
    /// and the connection parked (when `socket` went to the idle list, made by `park`). Waiters
    /// are served first come, first served, whatever loop they run on.
    mutating func release(_ socket: Socket?, reusable: Bool, park: (Socket) -> Idle)
        -> (next: (Waiter, Handoff)?, close: Socket?, parked: Idle?) {
        if let socket, reusable {
            if let next = waiters.removeFirst() { return ((next, .handedOver(socket)), nil, nil) }
            let parked = park(socket)
            idle.append(parked)
            return (nil, nil, parked)
        }
        guard let next = waiters.removeFirst() else {
            open = max(0, open - 1)
            return (nil, socket, nil)
        }
        return ((next, .fresh), socket, nil)
    }

    /// Removes `parked` from the idle list and frees its slot; false when it was not there.
    mutating func discard(_ parked: Idle) -> Bool {
        guard let index = idle.firstIndex(where: { $0 === parked }) else { return false }
        idle.remove(at: index)
        open = max(0, open - 1)
        return true
    }

    /// Removes the idle connections and frees their slots.
    mutating func takeIdle() -> [Idle] {
        defer { idle.removeAll() }
        open = max(0, open - idle.count)
        return idle
    }
}
