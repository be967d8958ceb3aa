import HTTPWire
import Locking
import Synchronization

/// Kept-alive connections per host and port, at most `limit` open to each at once.
///
/// Every lease handed out holds one slot of its host until it is given back with `release`;
/// requests beyond the limit wait in arrival order and receive the next released connection
/// (or its slot, when that connection could not be kept).
final class ConnectionPool: Sendable {
    /// Receives a lease; it runs on the thread that made the lease available, so it must not block.
    typealias Delivery = @Sendable (ConnectionLease) -> Void

    private struct Waiter {
        let id: UInt64
        let deliver: Delivery
    }

    /// One host's connections. It is changed in place (`hosts[key, default: Host()].lease(...)`):
    /// copying it out and back would copy its waiters on every change, all of them per acquire
    /// and release when hundreds of requests wait.
    private struct Host {
        var idle: [TCPSocket] = []
        var open = 0
        var waiters: [Waiter] = []

        /// An idle connection, else a free slot; nil after queuing `waiter` when neither exists.
        mutating func lease(limit: Int, orQueue waiter: Waiter) -> ConnectionLease? {
            if let socket = idle.popLast() { return .reused(socket) }
            if open < limit {
                open += 1
                return .fresh
            }
            waiters.append(waiter)
            return nil
        }

        /// Takes back a slot: returns the next waiter with what it receives, and the socket to close.
        mutating func release(_ socket: TCPSocket?, reusable: Bool) -> (next: (Waiter, ConnectionLease)?, close: TCPSocket?) {
            if let socket, reusable {
                if waiters.isEmpty {
                    idle.append(socket)
                    return (nil, nil)
                }
                return ((waiters.removeFirst(), .reused(socket)), nil)
            }
            if waiters.isEmpty {
                open = max(0, open - 1)
                return (nil, socket)
            }
            return ((waiters.removeFirst(), .fresh), socket)
        }

        /// An idle connection when every open one is idle (none in use), else nil.
        mutating func takeIdleWhenQuiet() -> TCPSocket? {
            open == idle.count ? idle.popLast() : nil
        }

        /// Removes the idle connections and frees their slots.
        mutating func takeIdle() -> [TCPSocket] {
            defer { idle.removeAll() }
            open = max(0, open - idle.count)
            return idle
        }
    }

    private struct State {
        var hosts: [ConnectionPoolKey: Host] = [:]
        var nextWaiterID: UInt64 = 0
    }

    /// The most connections open to one host at once.
    let limit: Int
    private let state = Lock(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    deinit {
        closeIdleConnections()
    }

    /// Asks for a connection to `key`: `deliver` runs at once when an idle connection or a free
    /// slot exists, otherwise when one is released. Returns the id `cancelWaiting` takes.
    @discardableResult
    func acquire(_ key: ConnectionPoolKey, deliver: @escaping Delivery) -> UInt64 {
        let limit = self.limit
        let (id, lease) = state.withLock { state -> (UInt64, ConnectionLease?) in
            state.nextWaiterID += 1
            let id = state.nextWaiterID
            return (id, state.hosts[key, default: Host()].lease(limit: limit, orQueue: Waiter(id: id, deliver: deliver)))
        }
        if let lease { deliver(lease) }
        return id
    }

    /// Takes an idle connection to `key`, holding its slot as `acquire` does, when no other
    /// connection to that host is in use; nil otherwise (the caller then asks with `acquire`).
    func takeIdleWhenQuiet(_ key: ConnectionPoolKey) -> TCPSocket? {
        state.withLock { state in
            state.hosts[key]?.takeIdleWhenQuiet()
        }
    }

    /// Removes a request still waiting for a connection; false when it was already served.
    @discardableResult
    func cancelWaiting(_ key: ConnectionPoolKey, id: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.hosts[key]?.waiters.firstIndex(where: { $0.id == id }) else { return false }
            state.hosts[key]?.waiters.remove(at: index)
            return true
        }
    }

    /// Gives a slot back: a `reusable` socket goes to the next waiter or to the idle list; any
    /// other socket is closed and its slot goes to the next waiter or is freed.
    func release(_ key: ConnectionPoolKey, socket: TCPSocket?, reusable: Bool) {
        let (next, toClose) = state.withLock { state in
            state.hosts[key, default: Host()].release(socket, reusable: reusable)
        }
        toClose?.close()
        if let (waiter, lease) = next { waiter.deliver(lease) }
    }

    /// Closes every idle connection and frees its slot; connections in use are not touched.
    func closeIdleConnections() {
        let sockets = state.withLock { state -> [TCPSocket] in
            var closed: [TCPSocket] = []
            for index in state.hosts.indices {
                closed += state.hosts.values[index].takeIdle()
            }
            return closed
        }
        for socket in sockets { socket.close() }
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
