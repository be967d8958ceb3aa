import EventLoopIO
import SystemTLS

/// One open connection, on one loop for its whole life: its socket, the pool's number for it and
/// its host, for `https` the TLS machine running on it once secured, the bytes written to it that
/// the socket has not taken yet (while it waits in the pool too), and its one way to close.
/// Requests come to its loop to use it (`SocketExchange` moves there); it never moves.
final class Connection: @unchecked Sendable {
    // @unchecked: `tls`, `sessionKept` and `pending` are touched only on `loop`'s thread (the
    // exchange using the connection runs there, and so does its parked watcher).
    let socket: TCPSocket
    /// The loop the connection was opened on, where everything about it happens.
    let loop: EventLoop
    /// The host it is open to, and its number in that host's pool.
    let key: ConnectionPoolKey
    let id: Int
    /// The TLS connection on the socket once secured (set once, by the exchange that runs the
    /// handshake); nil for `http`, and for an `https` connection not secured yet.
    var tls: TLSMachine?
    /// What its TLS handshake agreed on, once completed (for timings).
    var handshake: TLSHandshake?
    /// Whether the pool has this connection's TLS session for the host's next new connection.
    var sessionKept = false
    /// When its opener knew the host's addresses and when its connect completed (for timings).
    var resolvedAt: ContinuousClock.Instant?
    var connectedAt: ContinuousClock.Instant?
    /// The address it connected to, as text (made once, when it connected).
    var remoteAddress: String?
    /// Its opener's Happy Eyeballs attempts, for timings.
    var connectAttempts: [HTTPClientTimings.ConnectAttempt] = []
    /// Bytes written while no request used the connection (TLS records its parked watcher
    /// answered with) that the socket has not taken yet, from `pendingOffset` on.
    private var pending: [UInt8] = []
    private var pendingOffset = 0

    init(socket: TCPSocket, loop: EventLoop, key: ConnectionPoolKey, id: Int, tls: TLSMachine? = nil) {
        self.socket = socket
        self.loop = loop
        self.key = key
        self.id = id
        self.tls = tls
    }

    /// Whether the connection still needs its TLS handshake before a request (an `https`
    /// connection just opened, or given back unused before it was secured).
    var needsHandshake: Bool { key.secure && tls == nil }

    /// What writing the pending bytes came to.
    enum Flush: Equatable {
        /// Every pending byte is out.
        case done
        /// The socket takes no more now: watch it for room to write.
        case wouldBlock
        /// The socket failed (the peer is gone).
        case failed
    }

    /// Queues `bytes` behind the pending ones and writes what the socket takes now.
    func write(_ bytes: [UInt8]) -> Flush {
        loop.assertInLoop()
        pending += bytes
        return flush()
    }

    /// Writes what the socket takes of the pending bytes, now.
    func flush() -> Flush {
        loop.assertInLoop()
        while pendingOffset < pending.count {
            let result = pending.withUnsafeBytes { socket.sendSome(UnsafeRawBufferPointer(rebasing: $0[pendingOffset...])) }
            switch result {
            case .transferred(let count):
                pendingOffset += count
            case .wouldBlock, .endOfStream:
                return .wouldBlock
            case .failed:
                return .failed
            }
        }
        pending.removeAll()
        pendingOffset = 0
        return .done
    }

    /// Hands the pending bytes to the request that takes the connection, to write before its own.
    func takePendingWrites() -> [UInt8] {
        loop.assertInLoop()
        defer {
            pending.removeAll()
            pendingOffset = 0
        }
        return Array(pending[pendingOffset...])
    }

    /// Ends the connection on its loop, the one way every owner closes it: `unsent` (what its
    /// request had not written yet) goes behind the pending bytes, a TLS connection adds its
    /// `close_notify`, as much as the socket takes now is written (a peer that reads nothing more
    /// loses nothing), then the socket is closed. Deregister it first.
    func close(unsent: ArraySlice<UInt8> = []) {
        loop.assertInLoop()
        pending += unsent
        if let tls {
            for case .write(let bytes) in tls.close() { pending += bytes }
        }
        _ = flush()
        socket.close()
    }
}
