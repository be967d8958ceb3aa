import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
import Locking
import Synchronization

/// The provider's default transport: on Linux `http://` URLs go through `SocketTransport`
/// (FoundationNetworking's URLSession stops the process on some malformed responses), and so
/// do `https://` URLs when the system's OpenSSL loads (TLS on the transport's own loops); every
/// other request goes through `URLSessionTransport`, created on first use. On Apple platforms,
/// whose URLSession has no such crash, every scheme goes through URLSession.
public final class DefaultTransport: HTTPTransport {
    /// The transport for `http://` URLs (and `https://` when TLS loads).
    public let socketTransport: SocketTransport
    private let urlSessionTransport: Lock<URLSessionTransport?>

    /// Routes `http://` (and `https://` when TLS loads) to `socketTransport` and the rest to
    /// `urlSessionTransport` (a default `URLSessionTransport` is created at the first such request
    /// when none is given). By default `socketTransport` is `SocketTransport.shared`, over the
    /// process's `HTTPClient.shared`: every provider made with `DefaultTransport()` shares its
    /// kept-alive connections and TLS sessions, as apps share `URLSession.shared`; pass a transport
    /// of your own to keep a pool apart.
    public init(socketTransport: SocketTransport = .shared, urlSessionTransport: URLSessionTransport? = nil) {
        self.socketTransport = socketTransport
        self.urlSessionTransport = Lock(urlSessionTransport)
    }

    /// The transport for the schemes `socketTransport` does not take.
    public var sessionTransport: URLSessionTransport {
        urlSessionTransport.withLock { transport in
            if let transport { return transport }
            let created = URLSessionTransport()
            transport = created
            return created
        }
    }

    /// Sends through the transport for the request's scheme.
    public func send(_ request: URLRequest,
                     progress: (@Sendable (Double) -> Void)?,
                     completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        if Self.usesSocketTransport(for: request) {
            return socketTransport.send(request, progress: progress, completion: completion)
        }
        let transport = sessionTransport
        return transport.send(withDefaultHeaders(request, under: transport, downloading: false), progress: progress, completion: completion)
    }

    /// Sends with `options` through the transport for the request's scheme, streaming both ways.
    public func send(_ request: URLRequest,
                     options: TransportOptions,
                     completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        if Self.usesSocketTransport(for: request) {
            return socketTransport.send(request, options: options, completion: completion)
        }
        let transport = sessionTransport
        return transport.send(withDefaultHeaders(request, under: transport, downloading: options.downloadFile != nil), options: options,
                              completion: completion)
    }

    /// The headers the transport for the request's scheme adds: `socketTransport.session`'s
    /// default fields for every scheme (URLSession's requests get them too, so an app sends the
    /// same fields on every platform), under the URLSession configuration's own (a name of any
    /// case there replaces the default's).
    public func sessionHeaders(for request: URLRequest) -> [String: String] {
        let defaults = socketTransport.sessionHeaders(for: request)
        if Self.usesSocketTransport(for: request) { return defaults }
        // Not created yet: it will be made with the default configuration, which adds none.
        var own = urlSessionTransport.withLock { $0 }?.sessionHeaders(for: request) ?? [:]
        // Names compared without case: a default the configuration sets in another case is its.
        for (name, value) in defaults where HeaderFields.key(name, in: own) == nil { own[name] = value }
        return own
    }

    /// `request` with `socketTransport.session`'s default fields it lacks, for URLSession, except
    /// those the URLSession configuration's `httpAdditionalHeaders` set (names without case):
    /// URLSession lets a request's own field win, so a default set here would hide the
    /// configuration's.
    private func withDefaultHeaders(_ request: URLRequest, under transport: URLSessionTransport, downloading: Bool) -> URLRequest {
        var missing = socketTransport.session.missingHeaders(in: request, downloading: downloading)
        let configured = transport.sessionHeaders(for: request)
        if !configured.isEmpty { missing = missing.filter { HeaderFields.key($0.key, in: configured) == nil } }
        guard !missing.isEmpty else { return request }
        var request = request
        request.allHTTPHeaderFields = (request.allHTTPHeaderFields ?? [:]).merging(missing) { own, _ in own }
        return request
    }

    /// Whether `request` goes through `socketTransport`: `http://` and `http+unix://` (which
    /// URLSession cannot reach) on Linux, and `https://` there when the system's TLS library
    /// loads; never on Apple platforms.
    static func usesSocketTransport(for request: URLRequest) -> Bool {
        guard NetworkingPlatform.defaultTransportUsesSocketsForHTTP, let scheme = request.url?.scheme else { return false }
        // Compared in place: a lower-cased copy of the scheme cost every request an allocation.
        if scheme.caseInsensitiveEquals("http") || scheme.caseInsensitiveEquals("http+unix") { return true }
        return scheme.caseInsensitiveEquals("https") && tlsLoads
    }

    /// Whether the system's TLS library loads (asked once per process).
    static let tlsLoads: Bool = (try? TLSLibrary.load()) != nil
}
