import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SocketTransport {
    /// A transport doing what a URLSession made from `configuration` does, over this package's
    /// client (Alamofire's `Session(configuration:)` maps here): `httpAdditionalHeaders` over
    /// `DefaultHeaders.standard`, `timeoutIntervalForRequest` as the idle timeout (and the connect
    /// timeout when shorter),
    /// `timeoutIntervalForResource` as the overall deadline, `httpMaximumConnectionsPerHost`,
    /// `httpCookieStorage`, `httpShouldSetCookies`, `httpCookieAcceptPolicy`, `urlCache` (its
    /// capacities; `URLCache.shared` is `HTTPCache.shared`), `requestCachePolicy`,
    /// `connectionProxyDictionary` (CFNetwork's keys; nil keeps the environment's proxies) and, on Apple
    /// platforms, `tlsMinimumSupportedProtocolVersion`. docs/COMING_FROM.md lists every property
    /// with what happens to it.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.default
    /// configuration.timeoutIntervalForRequest = 20
    /// let provider = NetworkProvider<GitHub>(transport: SocketTransport(configuration: configuration))
    /// ```
    public convenience init(configuration: URLSessionConfiguration) {
        self.init(configuration: Self.clientConfiguration(configuration), session: Self.sessionOptions(configuration))
    }

    /// The client settings `configuration` maps to.
    static func clientConfiguration(_ configuration: URLSessionConfiguration) -> Configuration {
        var mapped = Configuration()
        if configuration.timeoutIntervalForRequest > 0 {
            mapped.idleTimeout = .milliseconds(Int64(min(configuration.timeoutIntervalForRequest, 1e9) * 1000))
            // URLSession's request timeout bounds a connection attempt too (nothing moves while
            // it lasts): one shorter than the client's connect timeout ends a connect, a name
            // lookup or a TLS handshake that hangs.
            mapped.connectTimeout = min(mapped.connectTimeout, mapped.idleTimeout)
        }
        mapped.overallDeadline = configuration.resourceDeadline
        mapped.maximumConnectionsPerHost = max(1, configuration.httpMaximumConnectionsPerHost)
        mapped.proxy = ConnectionProxyDictionary.proxy(configuration.connectionProxyDictionary)
        if let minimum = NetworkingPlatform.minimumTLSVersion(of: configuration) {
            mapped.tls.minimumVersion = minimum
        }
        return mapped
    }

    /// The session options `configuration` maps to.
    static func sessionOptions(_ configuration: URLSessionConfiguration) -> SessionOptions {
        var headers = DefaultHeaders.standard
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            let name = String(describing: name)
            for existing in headers.keys where existing.caseInsensitiveCompare(name) == .orderedSame { headers[existing] = nil }
            headers[name] = String(describing: value)
        }
        let cache: HTTPCache? = configuration.urlCache.map { urlCache in
            urlCache === URLCache.shared ? HTTPCache.shared : HTTPCache(memoryCapacity: urlCache.memoryCapacity)
        }
        return SessionOptions(headers: headers, cookieStorage: configuration.httpCookieStorage,
                              shouldSetCookies: configuration.httpShouldSetCookies,
                              cookieAcceptPolicy: configuration.httpCookieAcceptPolicy, cache: cache,
                              requestCachePolicy: configuration.requestCachePolicy)
    }
}
