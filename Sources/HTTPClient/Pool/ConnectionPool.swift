import EventLoopIO
import Locking
import Synchronization

/// Kept-alive connections per host and port, at most `limit` open to each at once.
///
/// Every lease handed out holds one slot of its host until it is given back with `release`;
/// requests beyond the limit wait in arrival order and receive the next released connection
/// (or its slot, when that connection could not be kept), told which loop released it. A
/// released connection nobody waits for stays registered on the loop that released it, as a
/// `ParkedConnection`.
final class ConnectionPool: Sendable {
    /// Receives a lease, and the loop whose thread runs the delivery (the loop that released the
    /// connection or slot; nil when `acquire` delivers at once on the caller's thread). It must
    /// not block.
    typealias Delivery = @Sendable (ConnectionLease, _ releasingLoop: EventLoop?) -> Void

    private struct Waiter {
        let id: UInt64
        let deliver: Delivery
    }

    /// One host's connections, changed in place (`hosts[key, default: Host()].lease(...)`):
    /// copying it out and back would copy its waiters on every change, all of them per acquire
    /// and release when hundreds of requests wait.
    private typealias Host = HostSlots<ParkedConnection, TCPSocket, Waiter>

    /// What `acquireNow` hands out.
    enum Lease {
        /// An idle connection, marked taken; its socket is still registered on its home loop.
        case parked(ParkedConnection)
        /// A free slot: the caller connects itself.
        case fresh
    }

    private struct State {
        var hosts: [ConnectionPoolKey: Host] = [:]
    }

    /// The most connections open to one host at once.
    let limit: Int
    private let state = Lock(State())
    private let lastWaiterID = Atomic<UInt64>(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    deinit {
        closeIdleConnections()
    }

    /// Asks for a connection to `key` for the waiter `id` (from `makeWaiterID()`, which the caller
    /// stores before asking: `deliver` may run on another thread before this returns). `deliver`
    /// runs at once when an idle connection or a free slot exists, otherwise when one is released;
    /// `cancelWaiting` takes the id. An idle connection taken here stays registered on its home
    /// loop until the new owner registers in its place (on the same loop) or its watcher sees the
    /// socket readable.
    func acquire(_ key: ConnectionPoolKey, id: UInt64, deliver: @escaping Delivery) {
        let limit = self.limit
        let lease = state.withLock { state in
            Self.taking(state.hosts[key, default: Host()].lease(limit: limit, orQueue: Waiter(id: id, deliver: deliver)))
        }
        switch lease {
        case .parked(let parked): deliver(.reused(parked.socket), nil)
        case .fresh: deliver(.fresh, nil)
        case nil: break
        }
    }

    /// A new id for `acquire` and `cancelWaiting`.
    func makeWaiterID() -> UInt64 {
        lastWaiterID.add(1, ordering: .relaxed).newValue
    }

    /// An idle connection to `key` or a free slot, held as `acquire` holds them; nil when the
    /// caller would have to wait (it then asks with `acquire`).
    func acquireNow(_ key: ConnectionPoolKey) -> Lease? {
        let limit = self.limit
        return state.withLock { state in
            Self.taking(state.hosts[key, default: Host()].lease(limit: limit, orQueue: nil))
        }
    }

    /// What a host granted, with an idle connection marked taken (under the pool's lock).
    private static func taking(_ grant: Host.Grant?) -> Lease? {
        switch grant {
        case .idle(let parked)?:
            parked.state = .taken(owner: nil)
            return .parked(parked)
        case .fresh?: return .fresh
        case nil: return nil
        }
    }

    /// An idle connection to `key`, held as `acquire` holds it, when no other connection to that
    /// host is in use; nil otherwise.
    func takeIdleWhenQuiet(_ key: ConnectionPoolKey) -> ParkedConnection? {
        state.withLock { state in
            // Decided before the lease, with no copy of the host alive: a copy held across the
            // lease made it copy the host's arrays (three allocations a request).
            guard state.hosts[key].map({ $0.open == $0.idle.count && !$0.idle.isEmpty }) == true,
                  case .parked(let parked)? = Self.taking(state.hosts[key]?.lease(limit: 0, orQueue: nil)) else { return nil }
            return parked
        }
    }

    /// Hands the registration of a connection taken with `acquireNow` to `exchange`, which wrote
    /// its request from another thread: the watcher passes it the socket's next readable event.
    /// False when the socket turned readable before (the watcher deregistered itself; the
    /// exchange then registers on the loop itself).
    func claim(_ parked: ParkedConnection, for exchange: SocketExchange) -> Bool {
        state.withLock { _ in
            guard !parked.sawEventWhileTaken, case .taken(nil) = parked.state else { return false }
            parked.state = .taken(owner: exchange)
            return true
        }
    }

    /// Called by a parked connection's watcher on its loop: what to do with the readable event.
    func parkedConnectionReadable(_ parked: ParkedConnection) -> ParkedConnection.Readable {
        state.withLock { state in
            switch parked.state {
            case .idle:
                // Closed by the server, or bytes nobody asked for: not reusable either way.
                guard state.hosts[parked.key]?.discard(parked) == true else { return .deregister }
                parked.state = .closed
                return .discard
            case .taken(let owner?):
                return .forward(owner)
            case .taken(nil):
                parked.sawEventWhileTaken = true
                return .deregister
            case .closed:
                return .deregister
            }
        }
    }

    /// Removes a request still waiting for a connection; false when it was already served.
    @discardableResult
    func cancelWaiting(_ key: ConnectionPoolKey, id: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.hosts[key]?.waiters.firstIndex(where: { $0.id == id }) else { return false }
            return state.hosts[key]?.waiters.remove(at: index) != nil
        }
    }

    /// Gives a slot back: a `reusable` socket goes to the next waiter, or to the idle list parked
    /// on `home` (the loop calling, whose registration of the socket the watcher replaces); any
    /// other socket is closed and its slot goes to the next waiter or is freed.
    /// Call on `home`'s thread, with `socket` registered nowhere.
    func release(_ key: ConnectionPoolKey, socket: TCPSocket?, reusable: Bool, home: EventLoop) {
        let released = state.withLock { state in
            state.hosts[key, default: Host()].release(socket, reusable: reusable) { socket in
                ParkedConnection(socket: socket, loop: home, key: key, pool: self)
            }
        }
        if let parked = released.parked {
            // Taken already by a caller's thread? Its claim then routes the answer through this watcher.
            home.register(parked.socket, readable: true, writable: false, handler: parked)
        }
        released.close?.close()
        guard let (waiter, handoff) = released.next else { return }
        switch handoff {
        case .handedOver(let kept): waiter.deliver(.handedOver(kept), home)
        case .fresh: waiter.deliver(.fresh, home)
        }
    }

    /// Takes back a lease its request no longer wants (it ended while waiting): a kept connection
    /// goes to the next waiter or is parked, a slot is freed. Call on `loop`'s thread, where a
    /// parked watcher of a reused connection may still be registered.
    func returnUnused(_ lease: ConnectionLease, for key: ConnectionPoolKey, on loop: EventLoop) {
        switch lease {
        case .reused(let kept), .handedOver(let kept):
            loop.deregister(kept)
            release(key, socket: kept, reusable: true, home: loop)
        case .fresh:
            release(key, socket: nil, reusable: false, home: loop)
        }
    }

    /// Closes every idle connection and frees its slot; connections in use are not touched.
    /// Each home loop stops watching its connections, then closes them (never the other way
    /// round: a number closed while watched could be given to a new connection).
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
            connection.loop.execute {
                connection.loop.deregister(connection.socket, ifHandler: connection)
                connection.socket.close()
            }
        }
    }

    /// Idle connections across all hosts.
    var idleCount: Int {
        state.withLock { $0.hosts.values.reduce(0) { $0 + $1.idle.count } }
    }

    /// Connections open or being opened to `key` (idle and in use).
    func openCount(_ key: ConnectionPoolKey) -> Int {
        state.withLock { $0.hosts[key]?.open ?? 0 }
    }
}
