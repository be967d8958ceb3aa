/// A request waiting in `HostSlots`: the loop it must run on (nil when it runs on the loop of
/// whatever it receives), and how many later waiters were served before it.
protocol SlotWaiter {
    associatedtype Loop: AnyObject
    /// The loop the waiting request must run on; nil when it runs on the loop of the
    /// connection it receives.
    var loop: Loop? { get }
    /// How many later waiters were served before this one.
    var passedOver: Int { get set }
}

/// One host's share of a `ConnectionPool` as a value: its idle connections, how many slots are
/// open (idle and in use), and the requests waiting. Each event (a lease asked for, a slot
/// released, an idle connection closed by its server, the pool emptied) changes it and returns
/// what the caller must do (deliver, close, park, mark), so every transition is tested without a
/// socket or a loop (`HostSlotsTests`). The pool calls it under its lock and acts outside it.
struct HostSlots<Idle: AnyObject, Socket, Waiter: SlotWaiter> {
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

    /// An idle connection, else a free slot; nil (after queuing `waiter`, when there is one)
    /// when neither exists.
    mutating func lease(limit: Int, orQueue waiter: Waiter?) -> Grant? {
        if let parked = idle.popLast() {
            return .idle(parked)
        }
        if open < limit {
            open += 1
            return .fresh
        }
        if let waiter { waiters.append(waiter) }
        return nil
    }

    /// Takes back a slot: returns the next waiter with what it receives, the socket to close,
    /// and the connection parked (when `socket` went to the idle list, made by `park`).
    ///
    /// A kept connection goes to the first waiter that can run on `home`, the loop releasing
    /// it (an unbound one, or one bound to `home`), among the next `window` (else to the first
    /// waiter): handed to a request bound to another loop, it would move there, which costs that
    /// loop a wake-up and both a registration change. Order among the waiters that can run on a
    /// loop stays first come, first served; a first waiter that was passed over `window` times
    /// is served next, whatever its loop, so none waits for ever while another loop keeps
    /// releasing.
    mutating func release(_ socket: Socket?, reusable: Bool, home: Waiter.Loop, window: Int, park: (Socket) -> Idle)
        -> (next: (Waiter, Handoff)?, close: Socket?, parked: Idle?) {
        if let socket, reusable {
            if let first = waiters.first {
                var index = 0
                if first.passedOver < window {
                    index = waiters.firstIndex(within: window) { $0.loop == nil || $0.loop === home } ?? 0
                }
                waiters.updateFirst(index) { $0.passedOver += 1 }
                if let next = waiters.remove(at: index) { return ((next, .handedOver(socket)), nil, nil) }
            }
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
