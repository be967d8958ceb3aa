import EventLoopIO

/// How an exchange turns a host into addresses: a literal at once on the loop, a name by a lookup
/// that may block (run off the loop). The system's `getaddrinfo` by default; tests hand the client
/// addresses of their own (several for one name, which no name on a test machine resolves to).
package struct HostResolver: Sendable {
    /// The host read as numeric addresses, or nil when it is a name to look up.
    package var literal: @Sendable (_ host: String, _ port: UInt16) -> [SocketAddress]?
    /// The name's addresses, in the order to try them; may block.
    package var lookUp: @Sendable (_ host: String, _ port: UInt16) throws(SocketError) -> [SocketAddress]

    package init(literal: @escaping @Sendable (_ host: String, _ port: UInt16) -> [SocketAddress]?,
                 lookUp: @escaping @Sendable (_ host: String, _ port: UInt16) throws(SocketError) -> [SocketAddress]) {
        self.literal = literal
        self.lookUp = lookUp
    }

    /// `getaddrinfo`: numeric hosts without a lookup, names through the system's resolver (IPv4 and IPv6).
    package static let system = HostResolver(
        literal: { host, port in try? SocketAddress.resolve(host: host, port: port, numericOnly: true) },
        lookUp: { host, port throws(SocketError) in try SocketAddress.resolve(host: host, port: port) }
    )
}
