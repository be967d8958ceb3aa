import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire

/// HTTP caching (RFC 9111) for `SocketTransport`, as Apple's URLSession with `URLCache`: GET and
/// HEAD responses stored as their fields allow, fresh ones answered without a request, stale
/// ones revalidated with `If-None-Match` / `If-Modified-Since` (a 304 answered as the stored
/// response with its fields updated), `URLRequest.cachePolicy` honoured. Its responses live in a
/// `ResponseCache` (memory and optionally disk, with byte limits), the same store the provider's
/// `requestCached` can use, under the same keys.
///
/// ```swift
/// let cache = HTTPCache(memoryCapacity: 4 << 20, diskCapacity: 50 << 20, directory: cachesURL)
/// let transport = SocketTransport(session: SessionOptions(cache: cache))
/// ```
public final class HTTPCache: Sendable {
    /// Where responses are kept.
    public let store: ResponseCache

    /// The default transport's cache: 512 KB in memory, no disk (`URLCache.shared`'s memory size).
    public static let shared = HTTPCache(memoryCapacity: 512 * 1024)

    /// A cache over `store`.
    public init(store: ResponseCache) {
        self.store = store
    }

    /// A cache of at most `memoryCapacity` bytes in memory and `diskCapacity` bytes in
    /// `directory` (none without one), as `URLCache(memoryCapacity:diskCapacity:directory:)`;
    /// a response larger than a twentieth of the larger limit is not stored, as URLCache does.
    public convenience init(memoryCapacity: Int, diskCapacity: Int = 0, directory: URL? = nil) {
        let disk = diskCapacity > 0 ? directory : nil
        self.init(store: ResponseCache(capacity: .max, directory: disk, memoryByteLimit: memoryCapacity,
                                       diskByteLimit: disk == nil ? nil : diskCapacity))
    }

    /// Forgets every stored response.
    public func removeAll() {
        store.removeAll()
    }

    /// The key of the response to `method` on `url`: `"GET <url>"`, as `CacheableTarget`'s.
    public static func key(method: String, url: URL) -> String {
        "\(method) \(url.absoluteString)"
    }

    /// The stored response `request` would get under `policy` now, if any (for tests and tools).
    public func cachedResponse(for request: URLRequest, policy: URLRequest.CachePolicy = .returnCacheDataDontLoad) -> Response? {
        guard let url = request.url else { return nil }
        let lookup = lookup(request, url: url, method: request.httpMethod?.uppercased() ?? "GET",
                            fields: HTTPHeaders(request.allHTTPHeaderFields ?? [:]), policy: policy)
        if case .answer(let response) = lookup { return response }
        return nil
    }

    /// What to do with a request before sending it.
    enum Lookup {
        /// Not for the cache (a method other than GET and HEAD): send as is; a success invalidates
        /// what is stored for its URL.
        case bypass
        /// Send as is; the cache has no say in the answer (the request forbids storing it, and
        /// nothing stored is being revalidated).
        case uncached
        /// Send; `conditional` fields (ordered by name as `HTTPHeaders(_:)` orders a
        /// dictionary's) make it a revalidation of `stored`; store what comes back, under `key`
        /// when the lookup made it (`received` makes it otherwise).
        case send(conditional: [HTTPHeaders.Field], stored: CacheSlot?, key: String?)
        /// Answer with this stored response; send nothing.
        case answer(Response)
        /// The policy forbids loading and nothing usable is stored.
        case unavailable
    }

    /// The decision for `request` (to `url` with `method`, upper-cased, and header `fields` of
    /// any case) under `policy` at `now` (`.useProtocolCachePolicy`: RFC 9111 §4).
    func lookup(_ request: URLRequest, url: URL, method: String, fields: HTTPHeaders, policy: URLRequest.CachePolicy,
                now: Date = Date()) -> Lookup {
        guard method == "GET" || method == "HEAD" else { return .bypass }
        switch policy {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData, .reloadRevalidatingCacheData:
            return .send(conditional: [], stored: nil, key: nil)
        default:
            break
        }
        // One pass over the fields, names compared in place: a conditional request of the
        // caller's own goes as it is; of several `Cache-Control` fields, one so spelled wins.
        var control: String?
        for field in fields {
            let name = field.name
            if name.caseInsensitiveEquals("If-None-Match") || name.caseInsensitiveEquals("If-Modified-Since") {
                return .send(conditional: [], stored: nil, key: nil)
            }
            if name.caseInsensitiveEquals("Cache-Control"), control == nil || name == "Cache-Control" { control = field.value }
        }
        let requestControl = CacheControl(control)
        let key = store.mayHoldResponses ? Self.key(method: method, url: url) : nil
        guard let slot = key.flatMap(store.slot(forKey:)), let freshness = freshness(of: slot),
              freshness.varied?.isEmpty == true || freshness.varyMatches(Self.lowercased(fields)) else {
            if policy == .returnCacheDataDontLoad || requestControl.onlyIfCached { return .unavailable }
            // Nothing to revalidate and the answer may not be stored (§5.2.1.5): none of the cache's business.
            return requestControl.noStore ? .uncached : .send(conditional: [], stored: nil, key: key)
        }
        switch policy {
        case .returnCacheDataElseLoad, .returnCacheDataDontLoad:
            return .answer(slot.response.answering(request))
        default:
            if freshness.isFresh(at: now, request: requestControl) { return .answer(slot.response.answering(request)) }
            if requestControl.onlyIfCached { return .unavailable }
            return .send(conditional: freshness.conditionalFields, stored: slot, key: key)
        }
    }

    /// The response to hand back for `response` (head `head`), answering `request` (to `url`
    /// with `method` and the header `fields` sent) at `requestTime` as `lookup` said (`stored` being revalidated,
    /// `key` the key it made, if any): a 304 to our conditional
    /// request becomes the stored response with updated fields; a storable response is stored;
    /// a non-error answer to an unsafe method invalidates the stored response of its URL.
    func received(_ response: Response, head: HTTPResponseHead, for request: URLRequest, url: URL, method: String,
                  fields requestFields: HTTPHeaders, stored: CacheSlot?, key: String? = nil, requestTime: Date,
                  responseTime: Date = Date()) -> Response {
        guard method == "GET" || method == "HEAD" else {
            if !["OPTIONS", "TRACE"].contains(method), (200...399).contains(head.status) { invalidate(after: head, to: url) }
            return response
        }
        // Most answers are neither a revalidation nor storable: decided before any key or copy is made.
        let fields = CacheFields(head.headers)
        guard head.status == 304 && stored != nil || CacheFreshness.mayBeStorable(status: head.status, cacheFields: fields) else {
            return response
        }
        // A redirect answered by another URL is stored by none: each hop would need its own entry.
        // (`responseURL`: reading `response` would build the `HTTPURLResponse` of SocketTransport's head.)
        guard response.responseURL.map({ $0 == url }) ?? true else { return response }
        if head.status == 304, let stored {
            // Merged as fields in place; the answer's `HTTPURLResponse` is built only if a caller reads it.
            var notModified = head.headers
            // RFC 9110 §6.6.1: a recipient with a clock dates a message it caches that came without `Date`.
            if !notModified.contains("Date") { notModified.add(name: "Date", value: HTTPDate.format(responseTime)) }
            let merged = CacheFreshness.updated(stored.response.cacheHeaders, with: notModified)
            let updated = Response(statusCode: stored.response.statusCode, data: stored.response.data, request: request, url: url,
                                   version: .http1_1, headers: merged, fileURL: nil, timings: nil)
            store(updated, fields: CacheFields(merged), key: key ?? Self.key(method: method, url: url), requestFields: requestFields,
                  requestTime: requestTime, responseTime: responseTime)
            return updated
        }
        guard CacheFreshness.isStorable(method: method, requestFields: requestFields, status: head.status, cacheFields: fields),
              store.admits(bodyBytes: response.data.count) else { return response }
        store(response, fields: fields, key: key ?? Self.key(method: method, url: url), requestFields: requestFields,
              requestTime: requestTime, responseTime: responseTime)
        return response
    }

    /// Stores `response` (caching fields `fields`) with its freshness decided now. Of the
    /// request's fields only those `Vary` names are ever read back, so only those are kept (and
    /// written to disk: never a `Cookie` or `Authorization` that `Vary` does not name).
    private func store(_ response: Response, fields: CacheFields, key: String, requestFields: HTTPHeaders,
                       requestTime: Date, responseTime: Date) {
        let freshness = CacheFreshness(status: response.statusCode, cacheFields: fields,
                                       requestFields: fields.vary == nil ? [:] : Self.lowercased(requestFields),
                                       requestTime: requestTime, responseTime: responseTime)
        let kept = freshness.varied ?? [:]
        store.store(CacheSlot(response: response, requestFields: kept, requestTime: requestTime,
                              responseTime: responseTime, freshness: freshness), forKey: key, writingLater: true)
    }

    /// The slot's freshness: decided when it was stored, else now from its fields (a response
    /// stored through `ResponseCache.store` or read from disk); nil when it may not be used.
    private func freshness(of slot: CacheSlot) -> CacheFreshness? {
        if let freshness = slot.freshness { return freshness }
        let fields = CacheFields(slot.response.cacheHeaders)
        guard fields.control.noStore == false else { return nil }
        return CacheFreshness(status: slot.response.statusCode, cacheFields: fields, requestFields: slot.requestFields,
                              requestTime: slot.requestTime, responseTime: slot.responseTime)
    }

    /// `fields` keyed by lower-cased names, the values of one name joined with ", " in order.
    static func lowercased(_ fields: HTTPHeaders) -> [String: String] {
        Dictionary(fields.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, second in first + ", " + second })
    }
}

extension Response {
    /// The fields of `response` as a list, read from the head when it is kept as one (what the cache
    /// reads and merges, without a dictionary or Foundation's object).
    fileprivate var cacheHeaders: HTTPHeaders { storage.cacheHeaders }
}

extension Response.Storage {
    /// The fields as a list: the head's own when it was read off the wire.
    fileprivate var cacheHeaders: HTTPHeaders {
        switch source {
        case .head(_, _, let headers): headers
        case .sharing(let other): other.cacheHeaders
        case .given: HTTPHeaders(headerFields)
        }
    }
}
