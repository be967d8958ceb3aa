import EventLoopIO
import SystemTLS

/// One open connection as the pool and the exchanges pass it on: its socket, and for `https`
/// the TLS machine running on it. It is used on the loop it is registered on, and changes loops
/// only while it is registered nowhere (handed over in a task).
final class Connection: @unchecked Sendable {
    // @unchecked: `tls` is not Sendable; it is touched only on the loop that owns the connection,
    // which hands it to another loop only after deregistering it there (the pool's moves and
    // hand-overs), so one thread at a time uses it.
    let socket: TCPSocket
    /// The TLS connection on the socket, for `https`; nil for `http`.
    let tls: TLSMachine?
    /// Whether the pool has this connection's TLS session for the host's next new connection.
    var sessionKept = false

    init(socket: TCPSocket, tls: TLSMachine? = nil) {
        self.socket = socket
        self.tls = tls
    }

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
