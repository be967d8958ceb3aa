/// One host's share of a `ConnectionPool` as a state machine: its connections (each being
/// opened, leased to a request, or idle), at most `limit` of them, and the requests waiting.
///
/// The pool opens connections for whoever waits, not for a request: a request that finds no idle
/// connection queues, and a connection is opened while more requests wait than connections are
/// being opened. An opened connection goes to the first request waiting then, or becomes idle
/// when none waits; so a connect in progress outlives the request that caused it. Each event
/// returns what the driver must do (hand over, park, close, open, fail a waiter); events about a
/// connection switch over its state, and a pair that cannot happen stops with a
/// `preconditionFailure` naming it. `ConnectionPool` calls it under its lock and acts outside it;
/// `HostPoolMachineTests` drives it with stand-ins, without a socket or a loop.
struct HostPoolMachine<Idle: AnyObject, Waiter> {
    /// A connection's number, given when the machine asks for it to be opened.
    typealias ConnectionID = Int

    /// Where a connection stands.
    enum ConnectionState: Equatable {
        /// Being opened (the lookup, the connect attempts).
        case connecting
        /// In use by a request.
        case leased
        /// Kept alive with nobody using it, at this place in `idle` (oldest first).
        case idle(position: Int)
    }

    /// What a request asking for a connection gets.
    enum Request {
        /// An idle connection (the most recently parked one `preferred` accepts, else the most
        /// recently parked one), leased to it now.
        case idle(Idle)
        /// Queued; `open` names a connection to open for the waiters, when one is wanted.
        case queued(open: ConnectionID?)
    }

    /// Where a connection goes once opened, or once released kept alive.
    enum Handoff {
        /// To this waiter (the first in line), leased to it.
        case deliver(to: Waiter)
        /// To the idle list: nobody waits.
        case parked(Idle)
    }

    /// What becomes of a connection released by its request.
    enum Release {
        /// Kept alive: to a waiter or the idle list.
        case kept(Handoff)
        /// Closed by the driver; `open` names a connection to open for the waiters, when one is wanted.
        case close(open: ConnectionID?)
    }

    /// The most connections open or being opened at once.
    let limit: Int
    /// Connections being opened or leased, by number; idle ones are in `idle`.
    private(set) var busy: [ConnectionID: ConnectionState] = [:]
    /// Idle connections, oldest first, with their numbers.
    private(set) var idle: [(id: ConnectionID, connection: Idle)] = []
    /// Requests waiting for a connection, in the order they were sent.
    private(set) var waiters = WaiterQueue<Queued>()
    private var nextID: ConnectionID = 0

    /// A waiting request, and whether it refuses kept-alive connections (`freshOnly`).
    struct Queued {
        let waiter: Waiter
        let freshOnly: Bool
    }

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Connections open or being opened (idle, leased, connecting).
    var open: Int { busy.count + idle.count }

    /// Connections being opened.
    var connecting: Int { busy.values.reduce(0) { $0 + ($1 == .connecting ? 1 : 0) } }

    /// Where connection `id` stands; nil when the machine does not count it (closed).
    func state(of id: ConnectionID) -> ConnectionState? {
        if let state = busy[id] { return state }
        return idle.firstIndex { $0.id == id }.map { .idle(position: $0) }
    }

    // MARK: Events

    /// A request asks for a connection: an idle one now (unless `freshOnly`: a request retried
    /// after its kept-alive connection turned out closed), else it queues (placed by `precedes`,
    /// arrival order by default) and a connection is opened when the waiters outnumber the
    /// connections being opened and a slot is free.
    mutating func request(_ waiter: Waiter, freshOnly: Bool = false, preferring preferred: (Idle) -> Bool = { _ in true },
                          precedes: (Waiter, Waiter) -> Bool = { _, _ in false }) -> Request {
        if !freshOnly, !idle.isEmpty {
            let index = idle.lastIndex { preferred($0.connection) } ?? idle.count - 1
            let taken = idle.remove(at: index)
            busy[taken.id] = .leased
            return .idle(taken.connection)
        }
        waiters.insert(Queued(waiter: waiter, freshOnly: freshOnly)) { precedes($0.waiter, $1.waiter) }
        return .queued(open: openIfWanted())
    }

    /// Connection `id` is open: it goes to the first waiter, else it is parked (made by `park`).
    mutating func connected(_ id: ConnectionID, park: () -> Idle) -> Handoff {
        switch state(of: id) {
        case .connecting?:
            return handOff(id, to: waiters.first == nil ? nil : 0, park: park)
        case .leased?, .idle?, nil:
            preconditionFailure("HostPoolMachine: connected in state \(String(describing: state(of: id)))")
        }
    }

    /// Opening connection `id` failed: the first waiter fails with it (each waiting request gets
    /// its own attempt, as it would alone); another connection is opened when waiters remain
    /// beyond the connections being opened.
    mutating func connectFailed(_ id: ConnectionID) -> (fail: Waiter?, open: ConnectionID?) {
        switch state(of: id) {
        case .connecting?:
            busy[id] = nil
            let failed = waiters.removeFirst()
            return (failed?.waiter, openIfWanted())
        case .leased?, .idle?, nil:
            preconditionFailure("HostPoolMachine: connectFailed in state \(String(describing: state(of: id)))")
        }
    }

    /// The request using connection `id` let go of it: kept alive (`reusable`) it goes to the
    /// first waiter that takes kept-alive connections, or is parked; otherwise it is closed and
    /// its slot opens a connection for the waiters, if any. A kept connection is closed too when
    /// only requests refusing kept connections wait and no slot is left to open theirs: a
    /// connection released a moment ago may be one its server is closing (a proxy that closes
    /// after each answer without saying so), which a retried request must not get again.
    mutating func released(_ id: ConnectionID, reusable: Bool, park: () -> Idle) -> Release {
        switch state(of: id) {
        case .leased?:
            let taker = waiters.firstIndex { !$0.freshOnly }
            guard reusable, taker != nil || waiters.count <= connecting else {
                busy[id] = nil
                return .close(open: openIfWanted())
            }
            return .kept(handOff(id, to: taker, park: park))
        case .connecting?, .idle?, nil:
            preconditionFailure("HostPoolMachine: released in state \(String(describing: state(of: id)))")
        }
    }

    /// Idle connection `id` must close (its server closed it, or it was idle too long): true when
    /// it was still idle and is dropped (the driver closes it), false when a request took it first
    /// (its watcher only stops watching). `open` names a connection to open when waiters that
    /// refused idle connections are left.
    mutating func idleClosed(_ id: ConnectionID) -> (dropped: Bool, open: ConnectionID?) {
        switch state(of: id) {
        case .idle(let position)?:
            idle.remove(at: position)
            return (true, openIfWanted())
        case .leased?:
            return (false, nil)
        case nil:
            // Dropped already: the pool emptied its idle list as the watcher fired.
            return (false, nil)
        case .connecting?:
            preconditionFailure("HostPoolMachine: idleClosed in state connecting")
        }
    }

    /// A waiter left the queue (cancelled, or its deadline passed): true when it was still there.
    /// A connection being opened for it goes on, for the next waiter or the idle list.
    mutating func waiterLeft(where matches: (Waiter) -> Bool) -> Bool {
        guard let index = waiters.firstIndex(where: { matches($0.waiter) }) else { return false }
        return waiters.remove(at: index) != nil
    }

    /// Every idle connection closes (the driver closes them); connections for waiters that
    /// refused idle ones are opened in the slots freed.
    mutating func closeIdle() -> (closed: [Idle], open: [ConnectionID]) {
        let closed = idle.map(\.connection)
        idle.removeAll()
        var opened: [ConnectionID] = []
        while let id = openIfWanted() { opened.append(id) }
        return (closed, opened)
    }

    // MARK: Helpers

    /// Leases `id` to the waiter at `position` in the queue, else (nil) parks it.
    private mutating func handOff(_ id: ConnectionID, to position: Int?, park: () -> Idle) -> Handoff {
        if let position, let next = waiters.remove(at: position) {
            busy[id] = .leased
            return .deliver(to: next.waiter)
        }
        busy[id] = nil
        let parked = park()
        idle.append((id, parked))
        return .parked(parked)
    }

    /// A new connection's number when more requests wait than connections are being opened and
    /// a slot is free.
    private mutating func openIfWanted() -> ConnectionID? {
        guard waiters.count > connecting, open < limit else { return nil }
        nextID += 1
        busy[nextID] = .connecting
        return nextID
    }
}
