import Foundation

/// A proxy to send through: its kind (an HTTP proxy, over TLS or not, SOCKS5 or SOCKS4), where it
/// listens, and the credentials its URL carries.
public struct ProxyEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// How requests go through the proxy, as curl reads the URL's scheme.
    public enum Kind: String, Sendable, Hashable {
        /// `http://` (or no scheme): plain `http` in absolute form, `https` through `CONNECT`.
        case http
        /// `https://`: an HTTP proxy spoken to over TLS (verified against the proxy's name with
        /// the client's TLS settings), as curl's HTTPS proxies: plain `http` in absolute form
        /// inside that TLS, `https` through `CONNECT` with a second TLS, to the origin, inside it.
        case https
        /// `socks5://`: every request through a SOCKS5 tunnel to the origin's address, the name
        /// resolved here.
        case socks5
        /// `socks5h://`: through a SOCKS5 tunnel to the origin's name, resolved by the proxy.
        case socks5h
        /// `socks4://` (or `socks://`, as curl reads it): every request through a SOCKS4 tunnel
        /// to the origin's IPv4 address, the name resolved here; the URL's user is the request's
        /// user ID (SOCKS4 has no password).
        case socks4

        /// Whether requests reach the proxy as HTTP (`http://`, `https://`): plain `http` in
        /// absolute form, tunnels by `CONNECT`.
        var speaksHTTP: Bool { self == .http || self == .https }
    }

    /// The proxy's kind.
    public let kind: Kind
    /// The proxy's host (brackets removed from an IPv6 address).
    public let host: String
    /// Its port: the URL's, else as curl assumes for a proxy: 443 for `https://`, 1080 for the rest.
    public let port: Int
    /// The user and password from the URL's user info (percent-decoded), if any.
    public var credentials: (user: String, password: String)? {
        user.map { ($0, password ?? "") }
    }
    private let user: String?
    private let password: String?

    /// The proxy `text` names, as curl reads a proxy variable: `host`, `host:port`,
    /// `http://user:password@host:port/`, `socks5://host`, `socks5h://user:password@host:port`,
    /// `socks4://user@host` (or `socks://`, as curl), `https://user:password@host`; nil for
    /// another scheme (`socks4a://` proxies are not supported: a proxy variable naming one fails
    /// its requests, `ProxyEnvironment` says how), no host, or a port outside 1...65535.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: withScheme), let kind = components.scheme.flatMap(Self.kind(scheme:)),
              let host = components.host, !host.isEmpty else { return nil }
        self.kind = kind
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let port = components.port ?? (kind == .https ? 443 : 1080)
        guard (1...65_535).contains(port) else { return nil }
        self.port = port
        // Decoded once, as curl decodes them: `URLComponents` gives them decoded already.
        self.user = components.user
        self.password = components.password
    }

    /// The kind a proxy URL's scheme names, as curl reads it (any case; `socks://` is SOCKS4).
    private static func kind(scheme: String) -> Kind? {
        let scheme = scheme.lowercased()
        return scheme == "socks" ? .socks4 : Kind(rawValue: scheme)
    }

    /// The `Proxy-Authorization` value for an HTTP proxy's credentials (`Basic` with base64 of
    /// `user:password`); nil for SOCKS, whose credentials go in its own negotiation.
    public var authorization: String? {
        guard kind.speaksHTTP else { return nil }
        return credentials.map { "Basic " + Data("\($0.user):\($0.password)".utf8).base64EncodedString() }
    }

    /// The proxy's URL with the password masked: for logs.
    public var description: String {
        let at = user.map { "\($0):***@" } ?? ""
        return "\(kind.rawValue)://\(at)\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Equal kind, host, port and credentials.
    public static func == (lhs: ProxyEndpoint, rhs: ProxyEndpoint) -> Bool {
        lhs.kind == rhs.kind && lhs.host == rhs.host && lhs.port == rhs.port && lhs.user == rhs.user && lhs.password == rhs.password
    }

    /// Hashes kind, host, port and user.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(user)
    }
}
