import EventLoopIO
import Locking
import Synchronization
import SystemTLS

/// Kept-alive connections per host and port, at most `limit` open to each at once, opened by the
/// pool for whoever waits.
///
/// Each host's decisions are its `HostPoolMachine`'s, called under the pool's lock; this class
/// performs them outside it. A request that finds no idle connection queues (in the order the
/// requests were sent), and the pool opens a connection (a `ConnectionOpener`, on the loop where
/// the need arose) while more requests wait than connections are being opened; the connection
/// goes to the first request waiting when it is open, whichever request caused it, so a connect
/// outlives a request that gives up. Every lease holds one of its host's slots until `release`.
/// A connection lives on the loop it was opened on: a request leased one elsewhere goes there
/// (`SocketExchange`), and a released connection nobody waits for stays registered there, as a
/// `ParkedConnection`, until it is taken, its server closes it, or it has been idle for
/// `idleTimeout`. A connection's channel (socket, registration, queued writes, timer) is touched
/// only on its loop.
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

    /// One host's share, changed in place (`hosts[key, default: ...].request(...)`): copying it
    /// out and back would copy its waiters on every change.
    private typealias Host = HostPoolMachine<ParkedConnection, Waiter>

    /// What `acquire` hands out at once; nil when the request queued.
    enum Lease {
        /// An idle connection parked on the asking loop, leased; its watcher is still registered.
        case here(ParkedConnection)
        /// An idle connection parked on another loop, leased: the request goes there to use it.
        case elsewhere(ParkedConnection)
    }

    private struct State {
        var hosts: [ConnectionPoolKey: Host] = [:]
        /// The last TLS session of each `https` host, offered to its next new connection.
        var sessions: [ConnectionPoolKey: TLSSession] = [:]
        /// Each connection's watcher, made when it is first parked and kept while it is leased,
        /// so that parking it again makes no object; dropped when the pool closes the connection
        /// or lets it go closed.
        var watchers: [ObjectIdentifier: ParkedConnection] = [:]
    }

    /// Runs `step` on the machine of `key`'s host, changed in place; nil when the pool never
    /// opened a connection to `key`. Through the dictionary's index: its optional subscript's
    /// in-place change allocates a frame for every call.
    private static func host<Outcome>(_ key: ConnectionPoolKey, in state: inout State, _ step: (inout Host) -> Outcome) -> Outcome? {
        guard let index = state.hosts.index(forKey: key) else { return nil }
        return step(&state.hosts.values[index])
    }

    /// Runs `step` (a machine's event that may park `connection`) with a maker of its watcher:
    /// the one kept for it, else a new one, kept from then on.
    private static func parking<Outcome>(_ connection: Connection, pool: ConnectionPool, in state: inout State,
                                          _ step: (inout State, () -> ParkedConnection) -> Outcome) -> Outcome {
        let id = ObjectIdentifier(connection)
        let kept = state.watchers[id]
        var made: ParkedConnection?
        let outcome = step(&state) {
            if let kept { return kept }
            let parked = ParkedConnection(connection: connection, pool: pool)
            made = parked
            return parked
        }
        if let made { state.watchers[id] = made }
        return outcome
    }

    /// The most connections open to one host at once.
    let limit: Int
    /// How long a connection may wait in the pool unused before it is closed.
    let idleTimeout: Duration
    /// How long opening a connection may take (the lookup and every attempt), and as long again
    /// its TLS handshake.
    let connectTimeout: Duration
    /// How an `https` connection's TLS handshake verifies the server (run by its opener).
    let tls: TLSConfiguration
    /// How host names become addresses for the connections the pool opens.
    let resolver: HostResolver
    /// A client's own loops, kept running while the pool lives (an opener holds the pool until
    /// its connect is decided, so its loop outlives a client let go meanwhile).
    private let loops: EventLoopGroup?
    private let state = Lock(State())
    private let tickets = Atomic<UInt64>(0)

    init(limit: Int, idleTimeout: Duration = .seconds(60), connectTimeout: Duration = .seconds(10), tls: TLSConfiguration = .init(),
         resolver: HostResolver = .system, loops: EventLoopGroup? = nil) {
        self.limit = max(1, limit)
        self.idleTimeout = idleTimeout
        self.connectTimeout = connectTimeout
        self.tls = tls
        self.resolver = resolver
        self.loops = loops
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
        state.withLock { $0.hosts[key]?.idle.last?.connection.loop }
    }

    /// Asks, on `waiter.loop`, for a connection to `key`: an idle one (one parked on this loop
    /// first) at once, unless `freshOnly`; else nil after queuing `waiter`, whose `deliver` then
    /// runs on its loop with a connection (released by another request, or opened for the
    /// waiters) or the failure of the connect it was first in line for. `cancelWaiting` takes it
    /// out of the queue.
    func acquire(_ key: ConnectionPoolKey, waiter: Waiter, freshOnly: Bool = false) -> Lease? {
        waiter.loop.assertInLoop()
        let (limit, loop) = (self.limit, waiter.loop)
        let request = state.withLock { state in
            state.hosts[key, default: Host(limit: limit)].request(waiter, freshOnly: freshOnly, preferring: { $0.loop === loop },
                                                                  precedes: { $0.ticket < $1.ticket })
        }
        switch request {
        case .idle(let parked):
            return parked.loop === loop ? .here(parked) : .elsewhere(parked)
        case .queued(let open):
            if let open { self.open(open, to: key, on: loop) }
            return nil
        }
    }

    /// Removes a request still waiting for a connection; false when it was already served. A
    /// connection being opened meanwhile goes on, for the next waiter or the idle list.
    @discardableResult
    func cancelWaiting(_ key: ConnectionPoolKey, id: ObjectIdentifier) -> Bool {
        state.withLock { state in Self.host(key, in: &state) { $0.waiterLeft { $0.id == id } } ?? false }
    }

    /// Gives a leased connection back, on its loop, its channel owned by anyone: a `reusable`
    /// connection goes to the next waiter (unwatched, bytes still queued kept; the waiter comes
    /// to its loop and takes the channel over), or is parked (its watcher takes the channel over,
    /// so the system is told nothing); any other connection is closed through its channel's close
    /// path (what its request queued goes first), and its slot opens a connection for the
    /// waiters, if any.
    func release(_ connection: Connection, reusable: Bool) {
        let loop = connection.loop
        loop.assertInLoop()
        let released = state.withLock { state in
            let released = Self.parking(connection, pool: self, in: &state) { state, park in
                Self.host(connection.key, in: &state) { $0.released(connection.id, reusable: reusable, park: park) }
            }
            if case .close? = released { state.watchers[ObjectIdentifier(connection)] = nil }
            return released
        }
        switch released {
        case .kept(.deliver(let waiter))?:
            connection.channel.unwatch()
            waiter.loop.execute { waiter.deliver(.handedOver(connection)) }
        case .kept(.parked(let parked))?:
            parked.park(idleFor: idleTimeout)
        case .close(let open)?:
            connection.close()
            if let open { self.open(open, to: connection.key, on: loop) }
        case nil:
            preconditionFailure("ConnectionPool: released a connection to \(connection.key), a host it never opened")
        }
    }

    /// Starts opening connection `id` to `key` on `loop`, in a task of its own: the caller (a
    /// request asking, a connection released) finishes first.
    private func open(_ id: Int, to key: ConnectionPoolKey, on loop: EventLoop) {
        let opener = ConnectionOpener(id: id, key: key, loop: loop, pool: self, resolver: resolver, timeout: connectTimeout)
        loop.execute { opener.start() }
    }

    /// `opener`'s connection is open (on its loop, registered nowhere): to the first waiter (which
    /// comes to its loop), else parked there.
    func connected(_ opener: ConnectionOpener, _ connection: Connection) {
        let loop = opener.loop
        let handoff = state.withLock { state in
            Self.parking(connection, pool: self, in: &state) { state, park in
                Self.host(opener.key, in: &state) { $0.connected(opener.id, park: park) }
            }
        }
        switch handoff {
        case .deliver(let waiter)?:
            deliver(.connected(connection), to: waiter, from: loop)
        case .parked(let parked)?:
            parked.park(idleFor: idleTimeout)
        case nil:
            preconditionFailure("ConnectionPool: connected to \(opener.key), a host it never opened")
        }
    }

    /// `opener` failed: the first waiter fails with `failure`; another connection is opened when
    /// more requests wait.
    func connectFailed(_ opener: ConnectionOpener, _ failure: ExchangeFailure) {
        let outcome = state.withLock { state in
            Self.host(opener.key, in: &state) { $0.connectFailed(opener.id) }
        }
        guard let outcome else { preconditionFailure("ConnectionPool: connectFailed to \(opener.key), a host it never opened") }
        if let waiter = outcome.fail { deliver(.failed(failure), to: waiter, from: opener.loop) }
        if let open = outcome.open { self.open(open, to: opener.key, on: opener.loop) }
    }

    /// Runs `waiter.deliver(lease)` on the waiter's loop: at once when that is `loop`, the caller's.
    private func deliver(_ lease: ConnectionLease, to waiter: Waiter, from loop: EventLoop) {
        if waiter.loop === loop {
            waiter.deliver(lease)
        } else {
            waiter.loop.execute { waiter.deliver(lease) }
        }
    }

    /// Called by a parked connection's watcher, on its loop, when its socket turned readable
    /// (closed by the server, or bytes nobody asked for) or its idle time ran out: true when it
    /// was still idle and is dropped from the pool (the watcher then closes it).
    func discard(_ parked: ParkedConnection) -> Bool {
        let key = parked.connection.key
        let outcome = state.withLock { state in
            let outcome = Self.host(key, in: &state) { $0.idleClosed(parked.connection.id) } ?? (dropped: false, open: nil)
            if outcome.dropped { state.watchers[ObjectIdentifier(parked.connection)] = nil }
            return outcome
        }
        if let open = outcome.open { self.open(open, to: key, on: parked.loop) }
        return outcome.dropped
    }

    /// Whether `parked` still waits in the idle list (read under the pool's lock).
    func isIdle(_ parked: ParkedConnection) -> Bool {
        state.withLock { state in
            guard case .idle? = state.hosts[parked.connection.key]?.state(of: parked.connection.id) else { return false }
            return true
        }
    }

    /// Closes every idle connection and frees its slot; connections in use are not touched.
    /// Each connection's loop stops watching it, then closes it.
    func closeIdleConnections() {
        let (closed, opens) = state.withLock { state -> ([ParkedConnection], [(ConnectionPoolKey, Int)]) in
            var closed: [ParkedConnection] = []
            var opens: [(ConnectionPoolKey, Int)] = []
            for index in state.hosts.indices {
                let key = state.hosts.keys[index]
                let host = state.hosts.values[index].closeIdle()
                closed += host.closed
                for parked in host.closed { state.watchers[ObjectIdentifier(parked.connection)] = nil }
                opens += host.open.map { (key, $0) }
            }
            return (closed, opens)
        }
        for connection in closed {
            connection.loop.execute { connection.close() }
        }
        // Slots freed for requests that refused idle connections: opened where one was closed.
        for (key, id) in opens {
            guard let loop = closed.first(where: { $0.connection.key == key })?.loop else { continue }
            open(id, to: key, on: loop)
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

    /// Connections open or being opened to `key` (idle, in use, connecting).
    func openCount(_ key: ConnectionPoolKey) -> Int {
        state.withLock { $0.hosts[key]?.open ?? 0 }
    }

    /// Connections being opened to `key`.
    func connectingCount(_ key: ConnectionPoolKey) -> Int {
        state.withLock { $0.hosts[key]?.connecting ?? 0 }
    }
}
