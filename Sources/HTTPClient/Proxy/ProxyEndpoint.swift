import Foundation

/// An HTTP proxy to send through: where it listens and the credentials its URL carries.
public struct ProxyEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host (brackets removed from an IPv6 address).
    public let host: String
    /// Its port: the URL's, else 1080 as curl assumes for an HTTP proxy.
    public let port: Int
    /// The user and password from the URL's user info (percent-decoded), if any.
    public var credentials: (user: String, password: String)? {
        user.map { ($0, password ?? "") }
    }
    private let user: String?
    private let password: String?

    /// The proxy `text` names, as curl reads a proxy variable: `host`, `host:port`,
    /// `http://user:password@host:port/`; nil for a scheme other than `http` (SOCKS and HTTPS
    /// proxies are not supported), no host, or a port outside 1...65535.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: withScheme), components.scheme?.lowercased() == "http",
              let host = components.host, !host.isEmpty else { return nil }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let port = components.port ?? 1080
        guard (1...65_535).contains(port) else { return nil }
        self.port = port
        self.user = components.user.flatMap { $0.removingPercentEncoding ?? $0 }
        self.password = components.password.flatMap { $0.removingPercentEncoding ?? $0 }
    }

    /// The `Proxy-Authorization` value for its credentials (`Basic` with base64 of `user:password`).
    public var authorization: String? {
        credentials.map { "Basic " + Data("\($0.user):\($0.password)".utf8).base64EncodedString() }
    }

    /// The proxy's URL with the password masked: for logs.
    public var description: String {
        let at = user.map { "\($0):***@" } ?? ""
        return "http://\(at)\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Equal host, port and credentials.
    public static func == (lhs: ProxyEndpoint, rhs: ProxyEndpoint) -> Bool {
        lhs.host == rhs.host && lhs.port == rhs.port && lhs.user == rhs.user && lhs.password == rhs.password
    }

    /// Hashes host, port and user.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(user)
    }
}
