/// The scheme, host and port a pooled connection is open to: an `https` connection (TLS) and an
/// `http` one to the same host and port are never shared.
struct ConnectionPoolKey: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection speaks TLS (`https`).
    let secure: Bool
    /// The host name or address literal as `getaddrinfo` takes it (no IPv6 brackets).
    let host: String
    /// The TCP port.
    let port: UInt16

    init(secure: Bool = false, host: String, port: UInt16) {
        self.secure = secure
        self.host = host
        self.port = port
    }

    var description: String { "\(secure ? "https" : "http")://\(host):\(port)" }
}
