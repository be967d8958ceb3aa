import EventLoopIO
import Locking
import Synchronization
import SystemTLS

/// Kept-alive connections per host and port, at most `limit` open to each at once.
///
/// Every lease handed out holds one slot of its host until it is given back with `release`;
/// requests beyond the limit wait in arrival order and receive the next released connection (or
/// its slot, when that connection could not be kept) on their own loop. A released connection
/// nobody waits for stays registered on the loop that released it (its home), as a
/// `ParkedConnection`, until it is taken, its server closes it, or it has been idle for
/// `idleTimeout`. The pool's lists are shared under its lock; a connection's socket, registration
/// and timer are touched only on its home loop, and a connection moves to another loop only while
/// it is registered nowhere.
final class ConnectionPool: Sendable {
    /// A request waiting for a connection: delivery runs on `loop`'s thread.
    struct Waiter: Sendable {
        /// The waiting exchange, for `cancelWaiting`.
        let id: ObjectIdentifier
        let loop: EventLoop
        /// Where it queues: requests are served in the order of their tickets (`makeTicket()`,
        /// taken when they were sent), though they reach the pool from several loops.
        var ticket: UInt64 = 0
        let deliver: @Sendable (ConnectionLease) -> Void
    }

    /// One host's connections, changed in place (`hosts[key, default: Host()].lease(...)`):
    /// copying it out and back would copy its waiters on every change.
    private typealias Host = HostSlots<ParkedConnection, Connection, Waiter>

    /// What `acquire` hands out at once.
    enum Lease {
        /// An idle connection parked on the asking loop, marked taken; its watcher is still registered.
        case here(ParkedConnection)
        /// An idle connection parked on another loop, marked taken: `ParkedConnection.move(to:)`
        /// brings it over.
        case elsewhere(ParkedConnection)
        /// A free slot: the caller connects itself.
        case fresh
    }

    private struct State {
        var hosts: [ConnectionPoolKey: Host] = [:]
        /// The last TLS session of each `https` host, offered to its next new connection.
        var sessions: [ConnectionPoolKey: TLSSession] = [:]
    }

    /// The most connections open to one host at once.
    let limit: Int
    /// How long a connection may wait in the pool unused before it is closed.
    let idleTimeout: Duration
    private let state = Lock(State())
    private let tickets = Atomic<UInt64>(0)

    init(limit: Int, idleTimeout: Duration = .seconds(60)) {
        self.limit = max(1, limit)
        self.idleTimeout = idleTimeout
    }

    deinit {
        closeIdleConnections()
    }

    /// A ticket for a request sent now, from any thread: it places the request in a queue.
    func makeTicket() -> UInt64 {
        tickets.add(1, ordering: .relaxed).newValue
    }

    /// The loop of the idle connection to `key` that `acquire` would take first (from any thread),
    /// so that a request starts where a connection waits; nil when none waits.
    func preferredLoop(for key: ConnectionPoolKey) -> EventLoop? {
        state.withLock { $0.hosts[key]?.idle.last?.loop }
    }

    /// Asks, on `waiter.loop`, for a connection to `key`: an idle one (one parked on this loop
    /// first) or a free slot at once, else nil after queuing `waiter`, whose `deliver` then runs on
    /// its loop when a connection or slot is released; `cancelWaiting` takes it out of the queue.
    func acquire(_ key: ConnectionPoolKey, waiter: Waiter) -> Lease? {
        waiter.loop.assertInLoop()
        let (limit, loop) = (self.limit, waiter.loop)
        return state.withLock { state -> Lease? in
            switch state.hosts[key, default: Host()].lease(limit: limit, orQueue: waiter, preferring: { $0.loop === loop },
                                                               precedes: { $0.ticket < $1.ticket }) {
            case .idle(let parked)?:
                parked.state = .taken
                return parked.loop === loop ? .here(parked) : .elsewhere(parked)
            case .fresh?:
                return .fresh
            case nil:
                return nil
            }
        }
    }

    /// Removes a request still waiting for a connection; false when it was already served.
    @discardableResult
    func cancelWaiting(_ key: ConnectionPoolKey, id: ObjectIdentifier) -> Bool {
        state.withLock { state in
            guard let index = state.hosts[key]?.waiters.firstIndex(where: { $0.id == id }) else { return false }
            return state.hosts[key]?.waiters.remove(at: index) != nil
        }
    }

    /// Gives a slot back, on `loop`'s thread, with `connection` registered on `loop` (with any
    /// handler) or nowhere: a `reusable` connection goes to the next waiter (registered nowhere,
    /// on the waiter's loop), or is parked on `loop` (its watcher takes over the registration,
    /// so the system is told nothing); any other connection is closed and its slot goes to the
    /// next waiter or is freed.
    func release(_ key: ConnectionPoolKey, connection: Connection?, reusable: Bool, on loop: EventLoop) {
        loop.assertInLoop()
        let released = state.withLock { state in
            state.hosts[key, default: Host()].release(connection, reusable: reusable) { connection in
                ParkedConnection(connection: connection, loop: loop, key: key, pool: self)
            }
        }
        released.parked?.park(idleFor: idleTimeout)
        if let closed = released.close {
            loop.deregister(closed.socket)
            closed.close()
        }
        guard let (waiter, handoff) = released.next else { return }
        let lease: ConnectionLease
        switch handoff {
        case .handedOver(let kept):
            loop.deregister(kept.socket)
            lease = .handedOver(kept)
        case .fresh:
            lease = .fresh
        }
        waiter.loop.execute { waiter.deliver(lease) }
    }

    /// Called by a parked connection's watcher, on its loop, when its socket turned readable
    /// (closed by the server, or bytes nobody asked for) or its idle time ran out: true when it
    /// was still idle and is dropped from the pool (the watcher then closes it).
    func discard(_ parked: ParkedConnection) -> Bool {
        state.withLock { state in
            guard case .idle = parked.state, state.hosts[parked.key]?.discard(parked) == true else { return false }
            parked.state = .closed
            return true
        }
    }

    /// Whether `parked` still waits in the idle list (read under the pool's lock, which guards its state).
    func isIdle(_ parked: ParkedConnection) -> Bool {
        state.withLock { _ in
            if case .idle = parked.state { return true }
            return false
        }
    }

    /// Closes every idle connection and frees its slot; connections in use are not touched.
    /// Each home loop stops watching its connections, then closes them.
    func closeIdleConnections() {
        let parked = state.withLock { state -> [ParkedConnection] in
            var closed: [ParkedConnection] = []
            for index in state.hosts.indices {
                closed += state.hosts.values[index].takeIdle()
            }
            for connection in closed { connection.state = .closed }
            return closed
        }
        for connection in parked {
            connection.loop.execute { connection.close() }
        }
    }

    /// Idle connections across all hosts.
    var idleCount: Int {
        state.withLock { $0.hosts.values.reduce(0) { $0 + $1.idle.count } }
    }

    /// The TLS session to offer on a new connection to `key` (the last one a connection to it brought).
    func session(for key: ConnectionPoolKey) -> TLSSession? {
        state.withLock { $0.sessions[key] }
    }

    /// Keeps `session` for the next new connection to `key`.
    func remember(_ session: TLSSession, for key: ConnectionPoolKey) {
        state.withLock { $0.sessions[key] = session }
    }

    /// Requests waiting for a connection to `key`.
    func waitingCount(_ key: ConnectionPoolKey) -> Int {
        state.withLock { $0.hosts[key]?.waiters.count ?? 0 }
    }

    /// Connections open or being opened to `key` (idle and in use).
    func openCount(_ key: ConnectionPoolKey) -> Int {
        state.withLock { $0.hosts[key]?.open ?? 0 }
    }
}
