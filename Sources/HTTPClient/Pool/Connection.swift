import EventLoopIO
import SystemTLS

/// One open connection as the pool and the exchanges pass it on: its socket, the pool's number
/// for it and its host, and for `https` the TLS machine running on it once secured. It is used
/// on the loop it is registered on, and changes loops only while it is registered nowhere
/// (handed over in a task).
final class Connection: @unchecked Sendable {
    // @unchecked: `tls` and `sessionKept` are not Sendable or not atomic; they are touched only on
    // the loop that owns the connection, which hands it to another loop only after deregistering
    // it there (the pool's moves and hand-overs), so one thread at a time uses them.
    let socket: TCPSocket
    /// The host it is open to, and its number in that host's pool.
    let key: ConnectionPoolKey
    let id: Int
    /// The TLS connection on the socket once secured (set once, by the exchange that runs the
    /// handshake); nil for `http`, and for an `https` connection not secured yet.
    var tls: TLSMachine?
    /// Whether the pool has this connection's TLS session for the host's next new connection.
    var sessionKept = false

    init(socket: TCPSocket, key: ConnectionPoolKey, id: Int, tls: TLSMachine? = nil) {
        self.socket = socket
        self.key = key
        self.id = id
        self.tls = tls
    }

    /// Whether the connection still needs its TLS handshake before a request (an `https`
    /// connection just opened, or given back unused before it was secured).
    var needsHandshake: Bool { key.secure && tls == nil }

    /// Ends the connection on its loop: a TLS connection says `close_notify` first (as much as
    /// the socket takes now; a peer that reads nothing more loses nothing), then the socket is
    /// closed. Deregister it first.
    func close() {
        if let tls {
            for case .write(let bytes) in tls.close() {
                _ = bytes.withUnsafeBytes { socket.sendSome($0) }
            }
        }
        socket.close()
    }
}
