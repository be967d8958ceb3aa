/// The scheme, host and port a pooled connection is open to, and the proxy it goes through: an
/// `https` connection (TLS) and an `http` one to the same host and port are never shared, nor
/// are connections through different proxies (or through one and direct). For `http+unix://`,
/// `host` is the socket's path and `port` 0.
///
/// Through an HTTP proxy, an `http` connection is open to the proxy itself and carries requests
/// to any origin (`host` and `port` are the proxy's), unless it `tunnels`; an `https` one always
/// does: a `CONNECT` tunnel to `host` and `port`, the origin, with TLS to it inside. Through an
/// HTTPS proxy the same, inside TLS to the proxy. Through a SOCKS proxy every connection is a
/// tunnel to the origin. A host name is kept in lower case (RFC 9110 §4.2.3: it is
/// case-insensitive), so `EXAMPLE.com` and `example.com` share one pool and its limit.
struct ConnectionPoolKey: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection speaks TLS (`https`).
    let secure: Bool
    /// The host name or address literal as `getaddrinfo` takes it (no IPv6 brackets), in lower
    /// case; a Unix domain socket's path as it is.
    let host: String
    /// The TCP port.
    let port: UInt16
    /// Whether `host` is the path of a Unix domain socket.
    let unix: Bool
    /// The proxy the connection goes through, if any.
    let proxy: ProxyEndpoint?
    /// Whether the connection is a tunnel through `proxy` to `host` and `port`: every one through
    /// a SOCKS proxy; through an HTTP or HTTPS proxy (`CONNECT`), every `https` one, and a plain
    /// `http` one when `tunnelsPlainHTTP`.
    let tunnels: Bool

    init(secure: Bool = false, host: String, port: UInt16, unix: Bool = false, proxy: ProxyEndpoint? = nil,
         tunnelsPlainHTTP: Bool = false) {
        self.secure = secure
        self.host = unix ? host : Self.lowercased(host)
        self.port = port
        self.unix = unix
        self.proxy = proxy
        self.tunnels = proxy.map { !$0.kind.speaksHTTP || secure || tunnelsPlainHTTP } ?? false
    }

    /// `host` with its ASCII capitals made small (host names are ASCII here: a name with other
    /// characters arrives as its A-labels); the same string, not a copy, when it has none, and
    /// for an IPv6 literal (whose zone, an interface's name, is case-sensitive).
    private static func lowercased(_ host: String) -> String {
        guard host.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }),
              !host.utf8.contains(UInt8(ascii: ":")) else { return host }
        return String(decoding: host.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Where the socket connects: the proxy of a tunnel, else `host` and `port`.
    var connectHost: String { tunnels ? proxy?.host ?? host : host }
    var connectPort: UInt16 { tunnels ? proxy.map { UInt16(clamping: $0.port) } ?? port : port }

    /// Where the session of a tunnel's TLS to an HTTPS proxy is kept for the next tunnel through
    /// it: the proxy's host and port as an `https` origin's key. Nil without an HTTPS proxy and
    /// for a forwarded connection (open to the proxy itself, whose own key keeps that session).
    var proxySessionKey: ConnectionPoolKey? {
        guard tunnels, let proxy, proxy.kind == .https else { return nil }
        return ConnectionPoolKey(secure: true, host: proxy.host, port: UInt16(clamping: proxy.port))
    }

    var description: String {
        if unix { return "http+unix://\(host)" }
        let via = proxy.map { " \(tunnels ? "tunnelled" : "forwarded") via \($0)" } ?? ""
        return "\(secure ? "https" : "http")://\(host):\(port)\(via)"
    }
}
