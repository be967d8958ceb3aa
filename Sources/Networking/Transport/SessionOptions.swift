import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire

/// What `SocketTransport` does for an app beyond sending each request as it is, as URLSession
/// does with a `URLSessionConfiguration`: default header fields, cookies and HTTP caching. The
/// defaults are `URLSessionConfiguration.default`'s with Alamofire's `HTTPHeaders.default`.
///
/// ```swift
/// var session = SessionOptions()
/// session.headers["User-Agent"] = "MyApp/2.1"      // change or drop a default field
/// session.cookieStorage = nil                      // no cookies at all
/// session.cache = HTTPCache(memoryCapacity: 4 << 20, diskCapacity: 50 << 20, directory: cachesURL)
/// let transport = SocketTransport(session: session)
/// ```
public struct SessionOptions: @unchecked Sendable {
    // @unchecked: `HTTPCookieStorage` is thread-safe (documented so) but not marked `Sendable` everywhere.

    /// Fields every request carries unless it sets its own (`DefaultHeaders.standard` by
    /// default); the provider adds them before plugins see the request. `Accept-Encoding` is
    /// left out for a body going to a file, which is written as it arrives.
    public var headers: [String: String] {
        didSet { defaultFields = DefaultFields(headers) }
    }
    /// Where cookies are kept and read: `HTTPCookieStorage.shared` by default, as
    /// `URLSessionConfiguration.default`; nil handles no cookies.
    public var cookieStorage: HTTPCookieStorage?
    /// Whether requests carry stored cookies (`httpShouldSetCookies`); a request's own
    /// `httpShouldHandleCookies == false` also turns cookies off for it, both ways.
    public var shouldSetCookies: Bool
    /// Which cookies responses may store; nil follows the storage's `cookieAcceptPolicy`.
    public var cookieAcceptPolicy: HTTPCookie.AcceptPolicy?
    /// The HTTP cache (RFC 9111): `HTTPCache.shared` (memory only) by default; nil caches nothing.
    public var cache: HTTPCache?
    /// The cache policy of a request that keeps `.useProtocolCachePolicy`.
    public var requestCachePolicy: URLRequest.CachePolicy
    /// `headers` made ready, once, as the client's field list (shared by a request that sets no
    /// field itself, merged into the list of one that does).
    private(set) var defaultFields: DefaultFields

    /// Options; pass only what differs from the defaults.
    public init(headers: [String: String] = DefaultHeaders.standard,
                cookieStorage: HTTPCookieStorage? = .shared,
                shouldSetCookies: Bool = true,
                cookieAcceptPolicy: HTTPCookie.AcceptPolicy? = nil,
                cache: HTTPCache? = .shared,
                requestCachePolicy: URLRequest.CachePolicy = .useProtocolCachePolicy) {
        self.headers = headers
        self.defaultFields = DefaultFields(headers)
        self.cookieStorage = cookieStorage
        self.shouldSetCookies = shouldSetCookies
        self.cookieAcceptPolicy = cookieAcceptPolicy
        self.cache = cache
        self.requestCachePolicy = requestCachePolicy
    }

    /// The fields of `headers` that `request` does not set itself (names compared without case),
    /// without `Accept-Encoding` when `downloading` to a file.
    public func missingHeaders(in request: URLRequest, downloading: Bool = false) -> [String: String] {
        let fields = request.allHTTPHeaderFields ?? [:]
        var missing: [String: String] = [:]
        for (name, value) in headers where HeaderFields.key(name, in: fields) == nil {
            if downloading, name.caseInsensitiveEquals("Accept-Encoding") { continue }
            missing[name] = value
        }
        return missing
    }

    /// The cookie jar for `request` to `url` (its URL), nil when cookies are off for it.
    func cookieJar(for request: URLRequest, url: URL) -> CookieJar? {
        cookieStorage != nil && CookieJar.handles(request, url: url) ? cookieJar : nil
    }

    /// The cookie jar of every request that handles cookies, nil when cookies are off.
    var cookieJar: CookieJar? {
        cookieStorage.map { CookieJar(storage: $0, acceptPolicy: cookieAcceptPolicy, setsCookies: shouldSetCookies) }
    }
}
