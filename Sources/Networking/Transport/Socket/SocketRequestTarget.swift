import Foundation

/// Where an `http://` URL points on the wire: the host and port to connect to, the `Host`
/// header value, and the request target (path and query, percent-encoded as given).
struct SocketRequestTarget: Sendable, Equatable {
    /// The host and port to connect to.
    let key: ConnectionPoolKey
    /// The `Host` header: the host (IPv6 literals in brackets) and the port unless it is 80.
    let hostHeader: String
    /// The origin-form request target, such as `/path?query`.
    let requestTarget: String

    /// Reads `url`; fails with `URLError(.unsupportedURL)` for a scheme other than `http` and
    /// `URLError(.badURL)` for a URL without a host or with an unusable port.
    init(url: URL) throws(URLError) {
        guard url.scheme?.lowercased() == "http" else { throw URLError(.unsupportedURL, userInfo: Self.info(url)) }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              var host = components.percentEncodedHost, !host.isEmpty else {
            throw URLError(.badURL, userInfo: Self.info(url))
        }
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        host = host.removingPercentEncoding ?? host
        let port = components.port ?? 80
        guard (1...65_535).contains(port), !host.contains(where: { $0 == "\r" || $0 == "\n" || $0 == " " }) else {
            throw URLError(.badURL, userInfo: Self.info(url))
        }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let query = components.percentEncodedQuery.map { "?\($0)" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        self.key = ConnectionPoolKey(host: host, port: UInt16(port))
        self.hostHeader = port == 80 ? shownHost : "\(shownHost):\(port)"
        self.requestTarget = path + query
    }

    private static func info(_ url: URL) -> [String: Any] {
        [NSURLErrorFailingURLErrorKey: url]
    }
}
