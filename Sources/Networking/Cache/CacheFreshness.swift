import Foundation
import HTTPWire

/// What RFC 9111 decides about one stored response, as a value computed once when it is stored
/// (from its header fields, lower-cased names, and the times its request went and its response
/// came): whether it may be stored at all, how long it stays fresh (§4.2.1, with §4.2.2's
/// heuristic of 10% of the time since `Last-Modified`), its age (§4.2.3), whether it must be
/// revalidated, and the validators and `Vary` fields a later request is checked against.
struct CacheFreshness: Equatable, Sendable {
    /// Seconds the response stays fresh.
    let lifetime: TimeInterval
    /// Its age when it arrived (`corrected_initial_age`).
    let initialAge: TimeInterval
    /// When it arrived.
    let responseTime: Date
    /// `no-cache` (or `must-revalidate` once stale): used only after a successful revalidation.
    let requiresRevalidation: Bool
    let mustRevalidate: Bool
    /// The validators a conditional request sends.
    let entityTag: String?
    let lastModified: String?
    /// The request fields `Vary` names (lower-cased) with the values the stored request had; nil
    /// when `Vary: *` (never matches).
    let varied: [String: String]?

    /// Statuses a cache may store without explicit freshness (RFC 9110 §15.1's "heuristically cacheable").
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The decision for the fields `cacheFields` of a response with `status` to a request with
    /// `requestFields` (lower-cased names), sent at `requestTime` and answered at `responseTime`.
    init(status: Int, cacheFields fields: CacheFields, requestFields: [String: String], requestTime: Date, responseTime: Date) {
        let control = fields.control
        let date = fields.date.flatMap(HTTPDate.parse) ?? responseTime
        if let maxAge = control.maxAge {
            lifetime = TimeInterval(maxAge)
        } else if let expires = fields.expires {
            lifetime = HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else if Self.heuristicallyCacheable.contains(status), let modified = fields.lastModified.flatMap(HTTPDate.parse) {
            lifetime = max(0, date.timeIntervalSince(modified)) / 10
        } else {
            lifetime = 0
        }
        let ageValue = fields.age.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let correctedAge = ageValue + max(0, responseTime.timeIntervalSince(requestTime))
        initialAge = max(apparentAge, correctedAge)
        self.responseTime = responseTime
        requiresRevalidation = control.noCache || fields.pragma.map { $0.lowercased().contains("no-cache") } == true && control.maxAge == nil
        mustRevalidate = control.mustRevalidate
        entityTag = fields.entityTag
        lastModified = fields.lastModified
        if let vary = fields.vary {
            let names = vary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
            varied = names.contains("*") ? nil : Dictionary(names.map { ($0, requestFields[$0] ?? "") }, uniquingKeysWith: { first, _ in first })
        } else {
            varied = [:]
        }
    }

    /// The decision for `fields` (lower-cased names) of a response, as `init(status:cacheFields:...)`.
    init(status: Int, fields: [String: String], requestFields: [String: String], requestTime: Date, responseTime: Date) {
        self.init(status: status, cacheFields: CacheFields(HTTPHeaders(fields)), requestFields: requestFields, requestTime: requestTime,
                  responseTime: responseTime)
    }

    /// Whether a response with `status` and fields `fields` could be storable at all (never a 206
    /// or a 304; `isStorable` may still say no): read from the head's fields alone, so that the
    /// answers no cache keeps cost no key and no lower-cased copy of the fields.
    static func mayBeStorable(status: Int, cacheFields fields: CacheFields) -> Bool {
        guard (200...599).contains(status), status != 206, status != 304 else { return false }
        if fields.hasCacheControl || fields.expires != nil { return true }
        return heuristicallyCacheable.contains(status) && (fields.lastModified != nil || fields.entityTag != nil)
    }

    /// Whether a response may be stored (RFC 9111 §3): a `GET` or `HEAD`, a complete response
    /// (never a 206, nor a 304, which only updates a stored one: §3.3, §4.3.4), neither side saying
    /// `no-store`, a status it understands with explicit freshness, a heuristically cacheable
    /// one, or a validator to revalidate with; with `Authorization` only when the response says
    /// `public`, `must-revalidate` or `s-maxage` (§3.5). `private` is for private caches: stored.
    /// `requestFields` are the request's (names of any case), `fields` the response's; read in
    /// place, with no lower-cased copy of either.
    static func isStorable(method: String, requestFields: HTTPHeaders, status: Int, cacheFields fields: CacheFields) -> Bool {
        guard method == "GET" || method == "HEAD", (200...599).contains(status), status != 206, status != 304 else { return false }
        let control = fields.control
        guard !control.noStore, !CacheControl(requestFields.joinedFieldValue("Cache-Control")).noStore else { return false }
        if requestFields.joinedFieldValue("Authorization") != nil, !control.isPublic, !control.mustRevalidate, control.sharedMaxAge == nil {
            return false
        }
        if fields.vary?.utf8.contains(UInt8(ascii: "*")) == true { return false }
        let explicit = control.maxAge != nil || fields.expires != nil || control.isPublic || control.isPrivate
        if explicit { return true }
        return heuristicallyCacheable.contains(status) && (fields.lastModified != nil || fields.entityTag != nil)
    }

    /// `isStorable` for response `fields` (lower-cased names).
    static func isStorable(method: String, requestFields: [String: String], status: Int, fields: [String: String]) -> Bool {
        isStorable(method: method, requestFields: HTTPHeaders(requestFields), status: status, cacheFields: CacheFields(HTTPHeaders(fields)))
    }

    /// Its age at `now` (`current_age`).
    func age(at now: Date) -> TimeInterval {
        initialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether it may answer a request with `requestControl` at `now` without asking the server.
    func isFresh(at now: Date, request requestControl: CacheControl) -> Bool {
        guard !requiresRevalidation, !requestControl.noCache else { return false }
        let age = age(at: now)
        var limit = lifetime
        if let maxAge = requestControl.maxAge { limit = min(limit, TimeInterval(maxAge)) }
        if let minFresh = requestControl.minFresh { limit -= TimeInterval(minFresh) }
        if age < limit { return true }
        guard let maxStale = requestControl.maxStale, !mustRevalidate else { return false }
        return age < lifetime + TimeInterval(min(maxStale, 1 << 40))
    }

    /// Whether a request with `requestFields` (lower-cased names) matches the stored one's `Vary` fields.
    func varyMatches(_ requestFields: [String: String]) -> Bool {
        guard let varied else { return false }
        return varied.allSatisfy { name, value in (requestFields[name] ?? "") == value }
    }

    /// The fields that make a request conditional on the stored response, in the order
    /// `HTTPHeaders(_:)` gives a dictionary of them; empty when it has no validator.
    var conditionalFields: [HTTPHeaders.Field] {
        switch (lastModified, entityTag) {
        case (nil, nil): []
        case (let lastModified?, nil): [HTTPHeaders.Field(name: "If-Modified-Since", value: lastModified)]
        case (nil, let entityTag?): [HTTPHeaders.Field(name: "If-None-Match", value: entityTag)]
        case (let lastModified?, let entityTag?):
            [HTTPHeaders.Field(name: "If-Modified-Since", value: lastModified), HTTPHeaders.Field(name: "If-None-Match", value: entityTag)]
        }
    }

    /// The stored fields updated by a 304's (RFC 9111 §3.2): each field the 304 carries replaces
    /// the stored ones of its name, except the framing fields, which describe the stored body.
    /// The stored `Age` goes in any case: it counted the first response's time in caches, and the
    /// 304 is the answer now dated (its own `Age`, if any, counts instead). Names are compared
    /// without case; one array is made.
    static func updated(_ stored: HTTPHeaders, with notModified: HTTPHeaders) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(stored.count + notModified.count)
        for field in stored where !field.name.caseInsensitiveEquals("age")
            && !notModified.contains(where: { $0.name.caseInsensitiveEquals(field.name) && !isFraming($0.name) }) {
            fields.append(field)
        }
        for field in notModified where !isFraming(field.name) { fields.append(field) }
        return HTTPHeaders(fields)
    }

    /// `updated` for fields as dictionaries (names of any case).
    static func updated(_ stored: [String: String], with notModified: [String: String]) -> [String: String] {
        updated(HTTPHeaders(stored), with: HTTPHeaders(notModified)).joinedByName
    }

    private static func isFraming(_ name: String) -> Bool {
        framingFields.contains { $0.caseInsensitiveEquals(name) }
    }

    private static let framingFields = ["content-length", "transfer-encoding", "content-encoding", "connection", "keep-alive"]
}
