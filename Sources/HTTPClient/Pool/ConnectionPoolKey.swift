/// The scheme, host and port a pooled connection is open to: an `https` connection (TLS) and an
/// `http` one to the same host and port are never shared. For `http+unix://`, `host` is the
/// socket's path and `port` 0.
struct ConnectionPoolKey: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection speaks TLS (`https`).
    let secure: Bool
    /// The host name or address literal as `getaddrinfo` takes it (no IPv6 brackets).
    let host: String
    /// The TCP port.
    let port: UInt16
    /// Whether `host` is the path of a Unix domain socket.
    let unix: Bool

    init(secure: Bool = false, host: String, port: UInt16, unix: Bool = false) {
        self.secure = secure
        self.host = host
        self.port = port
        self.unix = unix
    }

    var description: String { unix ? "http+unix://\(host)" : "\(secure ? "https" : "http")://\(host):\(port)" }
}
