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
    /// Whether the request reaches its origin through a proxy's tunnel (`CONNECT` or SOCKS), in
    /// origin form: the fields meant for the proxy (`Proxy-Authorization`) stay out of it.
    let tunnelled: Bool
    /// The URL these were read from (kept so the loop thread need not read the request again).
    let url: URL

    /// Reads `url`; fails with `.invalidURL(unsupportedScheme: true)` for a scheme other than
    /// `http` and `https`, and `.invalidURL(unsupportedScheme: false)` for a URL without a host or
    /// with an unusable port or a host that decodes to a byte no host name holds (see
    /// `isHostByte`) or to an internationalized name with no A-labels, and `.unusableProxy` when `proxy` names one this client cannot use
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
        // Foundation gives a literal `:` in the host only for an IPv6 literal (a decoded `%3A` is no IPv6).
        let isIPv6 = host.utf8.contains(UInt8(ascii: ":"))
        if host.utf8.contains(UInt8(ascii: "%")) { host = host.removingPercentEncoding ?? host }
        let defaultPort = secure ? 443 : 80
        let port = url.port ?? defaultPort
        // Bytes, not characters: "\r\n" is one `Character`, equal to neither "\r" nor "\n".
        guard (1...65_535).contains(port), host.utf8.allSatisfy({ Self.isHostByte($0, inIPv6: isIPv6) }) else {
            throw .invalidURL(unsupportedScheme: false)
        }
        if !isIPv6, host.utf8.contains(where: { $0 >= 0x80 }) {
            // An internationalized name is looked up, sent in `Host` and as SNI, and checked
            // against the certificate as its A-labels, as curl does (RFC 6066 section 3).
            guard let aLabels = Self.aLabels(of: host) else { throw .invalidURL(unsupportedScheme: false) }
            host = aLabels
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
            self.tunnelled = false
        case let endpoint:
            self.key = ConnectionPoolKey(secure: secure, host: host, port: UInt16(port), proxy: endpoint, tunnelsPlainHTTP: tunnelsPlainHTTP)
            self.requestTarget = path + query
            self.proxyAuthorization = nil
            self.tunnelled = endpoint != nil
        }
    }

    /// Whether `byte` may stand in a host once percent-decoded (in an IPv6 literal when
    /// `inIPv6`): not a control byte, space or DEL, nor a delimiter that would end or split the
    /// authority (WHATWG's forbidden host code points, as curl refuses them): a NUL would cut
    /// the name resolved (`127.0.0.1%00.evil` reaches 127.0.0.1) and go out in `Host`, a decoded
    /// `@` or `/` would make a proxy read another origin from the absolute form. `:` and `%` (a
    /// zone, `fe80::1%25eth0`) only in an IPv6 literal.
    private static func isHostByte(_ byte: UInt8, inIPv6: Bool) -> Bool {
        switch byte {
        case 0...0x20, 0x7F: false
        case UInt8(ascii: "#"), UInt8(ascii: "/"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"),
             UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"): false
        case UInt8(ascii: ":"), UInt8(ascii: "%"): inIPv6
        default: true
        }
    }

    /// `host`, a name with non-ASCII characters, as its A-labels by Foundation's IDNA
    /// (`bücher.test` is `xn--bcher-kva.test`); nil when it has none (it is no valid IDN).
    private static func aLabels(of host: String) -> String? {
        var components = URLComponents()
        components.host = host
        guard let encoded = components.encodedHost, !encoded.isEmpty,
              encoded.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "%") }) else { return nil }
        return encoded
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
        self.tunnelled = false
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
