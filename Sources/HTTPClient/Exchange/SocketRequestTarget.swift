import Foundation

/// Where an `http://`, `https://` or `http+unix://` URL points on the wire: the scheme, host and
/// port to connect to, the `Host` header value, and the request target (path and query,
/// percent-encoded as given); through a proxy, the key names it, and a plain `http` request goes
/// to an HTTP proxy in absolute form with the proxy's credentials (unless it tunnels, as `https`
/// and every request through SOCKS5 do).
struct SocketRequestTarget: Sendable, Equatable {
    /// The host and port to connect to, and the proxy.
    let key: ConnectionPoolKey
    /// The `Host` header: the host (IPv6 literals in brackets) and the port unless it is 80.
    let hostHeader: String
    /// The origin-form request target, such as `/path?query`; the absolute form
    /// (`http://host:port/path?query`) for a plain `http` request through a proxy.
    let requestTarget: String
    /// The `Proxy-Authorization` value a plain `http` request through a proxy carries (its URL's
    /// credentials); a tunnel's goes with its `CONNECT`.
    let proxyAuthorization: String?
    /// The URL these were read from (kept so the loop thread need not read the request again).
    let url: URL

    /// Reads `url`; fails with `.invalidURL(unsupportedScheme: true)` for a scheme other than
    /// `http` and `https`, and `.invalidURL(unsupportedScheme: false)` for a URL without a host or
    /// with an unusable port, and `.unusableProxy` when `proxy` names one this client cannot use
    /// for it (the exchange's failure, made an `HTTPClientError` once, with the URL, by
    /// `SocketExchange.clientError(for:)`).
    ///
    /// It reads the parts from `url` itself (resolved against its base), which keeps them parsed
    /// (building `URLComponents` would parse the URL again). The host is searched byte by byte:
    /// on Linux, `String.contains(_: String)` and `removingPercentEncoding` go through `NSString`,
    /// so decoding runs only for a host with a `%`.
    init(url: URL, proxy: HTTPClient.Configuration.Proxy = .none, tunnelsPlainHTTP: Bool = false) throws(ExchangeFailure) {
        let scheme = url.scheme?.lowercased()
        if scheme == "http+unix" {
            self = try Self(unixSocketURL: url)
            return
        }
        guard scheme == "http" || scheme == "https" else { throw .invalidURL(unsupportedScheme: true) }
        let secure = scheme == "https"
        guard var host = url.host(percentEncoded: true), !host.isEmpty else {
            throw .invalidURL(unsupportedScheme: false)
        }
        // IPv6 literals: Foundation gives them without brackets; strip them if a version does not.
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        if host.utf8.contains(UInt8(ascii: "%")) { host = host.removingPercentEncoding ?? host }
        let defaultPort = secure ? 443 : 80
        let port = url.port ?? defaultPort
        // Bytes, not characters: "\r\n" is one `Character`, equal to neither "\r" nor "\n".
        let breaksLine = { (byte: UInt8) in byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: " ") }
        guard (1...65_535).contains(port), !host.utf8.contains(where: breaksLine) else {
            throw .invalidURL(unsupportedScheme: false)
        }
        let encodedPath = url.path(percentEncoded: true)
        let path = encodedPath.isEmpty ? "/" : encodedPath
        let query = url.query(percentEncoded: true).map { "?\($0)" } ?? ""
        let shownHost = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        let hostHeader = port == defaultPort ? shownHost : "\(shownHost):\(port)"
        self.hostHeader = hostHeader
        self.url = url
        let endpoint: ProxyEndpoint?
        switch proxy.route(secure: secure, host: host, port: port) {
        case .unset: endpoint = nil
        case .proxy(let named): endpoint = named
        case .unusable(let value): throw .unusableProxy(value)
        }
        switch endpoint {
        case let endpoint? where endpoint.kind.speaksHTTP && !secure && !tunnelsPlainHTTP:
            // Forwarded: one connection to the HTTP (or HTTPS) proxy carries requests to every origin.
            self.key = ConnectionPoolKey(host: endpoint.host, port: UInt16(clamping: endpoint.port), proxy: endpoint)
            self.requestTarget = "http://" + hostHeader + path + query
            self.proxyAuthorization = endpoint.authorization
        case let endpoint:
            self.key = ConnectionPoolKey(secure: secure, host: host, port: UInt16(port), proxy: endpoint, tunnelsPlainHTTP: tunnelsPlainHTTP)
            self.requestTarget = path + query
            self.proxyAuthorization = nil
        }
    }

    /// Reads an `http+unix://` URL: the host, percent-decoded, is the socket's path (as
    /// AsyncHTTPClient spells it: `http+unix://%2Ftmp%2Fapp.sock/path`); `Host` is `localhost`.
    /// A Unix socket is never reached through a proxy.
    private init(unixSocketURL url: URL) throws(ExchangeFailure) {
        guard let encoded = url.host(percentEncoded: true), let path = encoded.removingPercentEncoding, !path.isEmpty else {
            throw .invalidURL(unsupportedScheme: false)
        }
        let encodedPath = url.path(percentEncoded: true)
        self.key = ConnectionPoolKey(secure: false, host: path, port: 0, unix: true)
        self.hostHeader = "localhost"
        self.requestTarget = (encodedPath.isEmpty ? "/" : encodedPath) + (url.query(percentEncoded: true).map { "?\($0)" } ?? "")
        self.proxyAuthorization = nil
        self.url = url
    }

    /// Reads `url` for the exchange's machine, deciding its proxy as `proxy` says (a plain `http`
    /// request tunnelled when `tunnelsPlainHTTP`): the target, or which way the URL is unusable.
    static func read(_ url: URL, proxy: HTTPClient.Configuration.Proxy = .none,
                     tunnelsPlainHTTP: Bool = false) -> Result<SocketRequestTarget, ExchangeFailure> {
        Result { () throws(ExchangeFailure) in try SocketRequestTarget(url: url, proxy: proxy, tunnelsPlainHTTP: tunnelsPlainHTTP) }
    }

    /// Reads `url` as `configuration` routes it (its proxy, and whether plain `http` tunnels).
    static func read(_ url: URL, as configuration: HTTPClient.Configuration) -> Result<SocketRequestTarget, ExchangeFailure> {
        read(url, proxy: configuration.proxy, tunnelsPlainHTTP: configuration.tunnelsPlainHTTPThroughProxy)
    }
}
