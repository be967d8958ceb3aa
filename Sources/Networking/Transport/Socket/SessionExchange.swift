import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import HTTPWire

/// What `SessionOptions` does around one `SocketTransport` exchange, as URLSession does:
/// before sending, the default fields the request lacks, the stored cookies and the cache's
/// decision (answer from the cache, make the request conditional, or refuse to load); each
/// redirect's `Set-Cookie` stored and the next hop's cookies set; after the answer, its
/// `Set-Cookie` stored and the cache told. It works on the fields as the client's list and never
/// mutates the `URLRequest` (a copy on Linux costs microseconds); a request with no fields of its
/// own takes the defaults' list as `SessionOptions` made it ready, one with fields of its own gets
/// the defaults it lacks merged into its list.
struct SessionExchange: Sendable {
    /// The request as the caller gave it (what the `Response` carries).
    let request: URLRequest
    let url: URL
    /// The method, upper-cased.
    let method: String
    /// The fields to send, in the order `HTTPHeaders(_:)` gives a dictionary of them (by name
    /// without case): the request's, the default fields it lacks, conditional fields, cookies.
    let head: HTTPHeaders
    /// The fields before conditional fields, cookies included (what the cache keys `Vary` on:
    /// the fields the request sends, RFC 9111 §4.1).
    let requestFields: HTTPHeaders
    let jar: CookieJar?
    let cache: HTTPCache?
    let stored: CacheSlot?
    /// The key the cache looked the request up under, if it made one.
    let cacheKey: String?
    /// When the request started (for the cache; `distantPast` without one).
    let requestTime: Date

    /// What to do with a request.
    enum Start {
        /// Send the exchange's fields.
        case send(SessionExchange)
        /// Answer at once, sending nothing.
        case answer(Result<Response, ProviderError>)
    }

    /// Prepares `request` to `url` under `options`; `downloading` says the body goes to a file
    /// (no `Accept-Encoding`, no caching) and `uploading` that a body comes from `TransportOptions`.
    static func start(_ request: URLRequest, url: URL, options: SessionOptions, downloading: Bool, uploading: Bool) -> Start {
        let method = normalizedMethod(request.httpMethod)
        // A request with no fields of its own sends the defaults as they were made ready once;
        // one with its own gets those it lacks merged into its list.
        let defaults = options.defaultFields.list(downloading: downloading)
        let ownFields = request.allHTTPHeaderFields.map { $0.isEmpty ? defaults : DefaultFields.merging(defaults, into: HTTPHeaders($0)) }
            ?? defaults
        // The cookies are set before the cache looks: `Vary: Cookie` compares the ones sent.
        let jar = options.cookieJar(for: request, url: url)
        let fields = jar?.cookieHeader(for: url).map { Self.setting("Cookie", to: $0, in: ownFields) } ?? ownFields
        var conditional: [HTTPHeaders.Field] = []
        var stored: CacheSlot?
        var cacheKey: String?
        var cache: HTTPCache?
        if let optionsCache = options.cache, downloading || uploading {
            // Neither answered nor stored, but an unsafe method's success invalidates (RFC 9111 §4.4).
            if method != "GET" && method != "HEAD" { cache = optionsCache }
        } else if let optionsCache = options.cache {
            let policy = request.cachePolicy == .useProtocolCachePolicy ? options.requestCachePolicy : request.cachePolicy
            switch optionsCache.lookup(request, url: url, method: method, fields: fields, policy: policy) {
            case .bypass:
                cache = optionsCache
            case .uncached:
                break
            case .answer(let response):
                return .answer(.success(response))
            case .unavailable:
                return .answer(.failure(.underlying(URLError(.resourceUnavailable, userInfo: [NSURLErrorFailingURLErrorKey: url]), nil)))
            case .send(let conditionalFields, let slot, let key):
                cache = optionsCache
                stored = slot
                cacheKey = key
                conditional = conditionalFields
            }
        }
        let head = conditional.isEmpty ? fields : Self.setting(conditional, in: fields)
        // The clock is read for the cache alone (its age computations).
        return .send(SessionExchange(request: request, url: url, method: method, head: head, requestFields: fields,
                                     jar: jar, cache: cache, stored: stored, cacheKey: cacheKey,
                                     requestTime: cache == nil ? .distantPast : Date()))
    }

    /// `head` (ordered by name without case, as `HTTPHeaders(_:)` orders a dictionary) with
    /// `name` set to `value`: any field of that name, of any case, replaced by one in its place
    /// in that order. The same list as setting it in the dictionary and listing that anew.
    static func setting(_ name: String, to value: String, in head: HTTPHeaders) -> HTTPHeaders {
        setting(CollectionOfOne(HTTPHeaders.Field(name: name, value: value)), in: head)
    }

    /// `head` with each of `added` (in that order, by name without case) set as `setting(_:to:in:)`
    /// sets one, in one pass and one array.
    static func setting(_ added: some Collection<HTTPHeaders.Field>, in head: HTTPHeaders) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(head.count + added.count)
        var next = added.startIndex
        for field in head where !added.contains(where: { $0.name.caseInsensitiveEquals(field.name) }) {
            while next != added.endIndex, HTTPHeaders.nameSortsBefore(added[next].name, field.name) {
                fields.append(added[next])
                added.formIndex(after: &next)
            }
            fields.append(field)
        }
        fields.append(contentsOf: added[next...])
        return HTTPHeaders(fields)
    }

    /// `method` upper-cased, `GET` when nil or empty; one with no lower-case ASCII letter and no
    /// other byte than ASCII (every usual method) as it is.
    static func normalizedMethod(_ method: String?) -> String {
        guard let method, !method.isEmpty else { return "GET" }
        let upperCased = method.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) }
        return upperCased ? method : method.uppercased()
    }

    /// The hook the client calls at each redirect: stores its cookies, sets the next hop's.
    /// `shared` is the transport's hook for requests without a main document (made once, see
    /// `redirectHook(_:mainDocument:)`), handed out for those instead of a new closure.
    func redirectHook(sharing shared: HTTPClientRequest.RedirectHook?) -> HTTPClientRequest.RedirectHook? {
        guard let jar else { return nil }
        let mainDocument = request.mainDocumentURL
        if mainDocument == nil, let shared { return shared }
        return Self.redirectHook(jar, mainDocument: mainDocument)
    }

    /// The redirect hook over `jar` for requests whose main document is `mainDocument`.
    static func redirectHook(_ jar: CookieJar, mainDocument: URL?) -> HTTPClientRequest.RedirectHook {
        { head, from, to, headers in
            jar.followRedirect(storing: head.headers.values(for: "Set-Cookie"), from: from, to: to,
                               mainDocumentURL: mainDocument, headers: &headers)
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
        return cache.received(response, head: head, for: request, url: url, method: method, fields: requestFields,
                              stored: stored, key: cacheKey, requestTime: requestTime)
    }
}
