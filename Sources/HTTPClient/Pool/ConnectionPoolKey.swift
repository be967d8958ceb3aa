/// The host and port a pooled connection is open to.
struct ConnectionPoolKey: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address literal as `getaddrinfo` takes it (no IPv6 brackets).
    let host: String
    /// The TCP port.
    let port: UInt16

    var description: String { "\(host):\(port)" }
}
