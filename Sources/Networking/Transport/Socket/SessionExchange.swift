import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import HTTPWire

/// What `SessionOptions` does around one `SocketTransport` exchange, as URLSession does:
/// before sending, the default fields the request lacks, the cache's decision (answer from the
/// cache, make the request conditional, or refuse to load) and the stored cookies; each
/// redirect's `Set-Cookie` stored and the next hop's cookies set; after the answer, its
/// `Set-Cookie` stored and the cache told.
struct SessionExchange: Sendable {
    /// The request to send, with the default fields, cookies and conditional fields added.
    let request: URLRequest
    /// The request as the caller made it with the default fields (what the `Response` carries).
    let original: URLRequest
    let jar: CookieJar?
    let cache: HTTPCache?
    let stored: CacheSlot?
    let requestTime: Date

    /// What to do with a request.
    enum Start {
        /// Send `exchange.request`.
        case send(SessionExchange)
        /// Answer at once, sending nothing.
        case answer(Result<Response, ProviderError>)
    }

    /// Prepares `request` under `options`; `downloading` says the body goes to a file (no
    /// `Accept-Encoding`, no caching) and `uploading` that a body comes from `TransportOptions`.
    static func start(_ request: URLRequest, options: SessionOptions, downloading: Bool, uploading: Bool) -> Start {
        var request = request
        for (name, value) in options.missingHeaders(in: request, downloading: downloading) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let original = request
        var stored: CacheSlot?
        var cache: HTTPCache?
        if let optionsCache = options.cache, !downloading, !uploading {
            let policy = request.cachePolicy == .useProtocolCachePolicy ? options.requestCachePolicy : request.cachePolicy
            switch optionsCache.lookup(request, policy: policy) {
            case .bypass:
                cache = optionsCache
            case .answer(let response):
                return .answer(.success(response))
            case .unavailable:
                return .answer(.failure(.underlying(URLError(.resourceUnavailable, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any]), nil)))
            case .send(let conditional, let slot):
                cache = optionsCache
                stored = slot
                for (name, value) in conditional { request.setValue(value, forHTTPHeaderField: name) }
            }
        }
        let jar = options.cookieJar(for: request)
        if let url = request.url, let cookies = jar?.cookieHeader(for: url) {
            request.setValue(cookies, forHTTPHeaderField: "Cookie")
        }
        return .send(SessionExchange(request: request, original: original, jar: jar, cache: cache, stored: stored, requestTime: Date()))
    }

    /// The hook the client calls at each redirect: stores its cookies, sets the next hop's.
    var redirectHook: HTTPClientRequest.RedirectHook? {
        guard let jar else { return nil }
        let mainDocument = request.mainDocumentURL
        return { head, from, to, headers in
            jar.store(head.headers.values(for: "Set-Cookie"), from: from, mainDocumentURL: mainDocument)
            if let cookies = jar.cookieHeader(for: to) {
                headers = headers.filter { $0.key.caseInsensitiveCompare("Cookie") != .orderedSame }
                headers["Cookie"] = cookies
            }
        }
    }

    /// Whether the answer's `Set-Cookie` fields must be stored before it is reported (which then
    /// happens off the loop: a persistent storage writes a file).
    func storesCookies(from head: HTTPResponseHead) -> Bool {
        jar != nil && head.headers.contains("Set-Cookie")
    }

    /// Stores the answer's cookies (`from`: the URL that answered).
    func storeCookies(from head: HTTPResponseHead, url: URL) {
        jar?.store(head.headers.values(for: "Set-Cookie"), from: url, mainDocumentURL: request.mainDocumentURL)
    }

    /// The caller's response for the client's `response` (head `head`): the cache's say on it.
    func finished(_ response: Response, head: HTTPResponseHead) -> Response {
        guard let cache else { return response }
        return cache.received(response, head: head, for: original, stored: stored, requestTime: requestTime)
    }
}
