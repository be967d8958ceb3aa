import Foundation
import HTTPWire
@testable import Networking
import TestSupport
import XCTest

/// RFC 9111's decisions as pure values, with real header values: what may be stored, how long
/// it stays fresh, its age, revalidation, `Vary`, and a 304's update of the stored fields.
final class CacheFreshnessTests: LeakCheckingTestCase {
    private let sent = Date(timeIntervalSince1970: 1_700_000_000)
    private var arrived: Date { sent.addingTimeInterval(1) }

    private func freshness(_ fields: [String: String], status: Int = 200, request: [String: String] = [:]) -> CacheFreshness {
        CacheFreshness(status: status, fields: fields, requestFields: request, requestTime: sent, responseTime: arrived)
    }

    private func storable(_ fields: [String: String], status: Int = 200, method: String = "GET", request: [String: String] = [:]) -> Bool {
        CacheFreshness.isStorable(method: method, requestFields: request, status: status, fields: fields)
    }

    func testCacheControlDirectives() {
        let control = CacheControl(#"public, max-age="60", no-cache, s-maxage=120, must-revalidate, private, bogus=1"#)
        XCTAssertEqual(control.maxAge, 60)
        XCTAssertEqual(control.sharedMaxAge, 120)
        XCTAssertTrue(control.isPublic && control.noCache && control.mustRevalidate && control.isPrivate)
        XCTAssertFalse(control.noStore)
        XCTAssertEqual(CacheControl("max-age=soon").maxAge, 0, "an invalid max-age is stale")
        XCTAssertEqual(CacheControl("max-stale").maxStale, Int.max)
        XCTAssertEqual(CacheControl("max-stale=30, min-fresh=5, only-if-cached").minFresh, 5)
    }

    func testWhatMayBeStored() {
        XCTAssertTrue(storable(["cache-control": "max-age=60"]))
        XCTAssertTrue(storable(["etag": "\"v1\""]), "a validator to revalidate with")
        XCTAssertTrue(storable(["last-modified": "Sun, 06 Nov 1994 08:49:37 GMT"]))
        XCTAssertTrue(storable(["cache-control": "private, max-age=60"]), "a private cache stores private responses")
        XCTAssertTrue(storable(["expires": "Thu, 01 Jan 2099 00:00:00 GMT"], status: 500), "explicit freshness on any status")
        XCTAssertFalse(storable([:]), "nothing to go by")
        XCTAssertFalse(storable(["cache-control": "no-store, max-age=60"]))
        XCTAssertFalse(storable(["cache-control": "max-age=60"], request: ["cache-control": "no-store"]))
        XCTAssertFalse(storable(["cache-control": "max-age=60"], method: "POST"))
        XCTAssertTrue(storable(["cache-control": "max-age=60"], method: "HEAD"))
        XCTAssertFalse(storable(["etag": "\"v\""], status: 500), "not heuristically cacheable, no explicit freshness")
        XCTAssertFalse(storable(["cache-control": "max-age=60", "vary": "*"]))
        let authorized = ["authorization": "Bearer t"]
        XCTAssertFalse(storable(["cache-control": "max-age=60"], request: authorized), "RFC 9111 §3.5")
        XCTAssertTrue(storable(["cache-control": "public, max-age=60"], request: authorized))
        XCTAssertTrue(storable(["cache-control": "must-revalidate, max-age=60"], request: authorized))
        XCTAssertTrue(storable(["cache-control": "s-maxage=60", "etag": "\"v\""], request: authorized), "s-maxage allows it; the ETag makes it worth storing here")
    }

    func testLifetimeFromMaxAgeThenExpiresThenTenPercentSinceLastModified() {
        let date = HTTPDate.format(sent)
        XCTAssertEqual(freshness(["cache-control": "max-age=60", "expires": HTTPDate.format(sent.addingTimeInterval(999))]).lifetime, 60)
        XCTAssertEqual(freshness(["date": date, "expires": HTTPDate.format(sent.addingTimeInterval(300))]).lifetime, 300)
        XCTAssertEqual(freshness(["date": date, "expires": "0"]).lifetime, 0, "an invalid Expires is in the past")
        let modified = HTTPDate.format(sent.addingTimeInterval(-10_000))
        XCTAssertEqual(freshness(["date": date, "last-modified": modified]).lifetime, 1_000, "heuristic: 10% of the age")
        XCTAssertEqual(freshness(["date": date, "last-modified": modified], status: 302).lifetime, 0, "302 is not heuristically cacheable")
    }

    func testAgeCountsTheAgeFieldTheDelayAndTheTimeResident() {
        let value = freshness(["cache-control": "max-age=60", "age": "10", "date": HTTPDate.format(sent)])
        XCTAssertEqual(value.initialAge, 11, "Age plus the response delay")
        XCTAssertEqual(value.age(at: arrived.addingTimeInterval(20)), 31)
        XCTAssertTrue(value.isFresh(at: arrived.addingTimeInterval(48), request: CacheControl(nil)))
        XCTAssertFalse(value.isFresh(at: arrived.addingTimeInterval(49), request: CacheControl(nil)))
        let old = freshness(["cache-control": "max-age=60", "date": HTTPDate.format(sent.addingTimeInterval(-100))])
        XCTAssertEqual(old.initialAge, 101, "apparent age from Date")
    }

    func testRequestDirectivesAndNoCache() {
        let value = freshness(["cache-control": "max-age=60"])
        let later = arrived.addingTimeInterval(30)
        XCTAssertFalse(value.isFresh(at: later, request: CacheControl("no-cache")))
        XCTAssertFalse(value.isFresh(at: later, request: CacheControl("max-age=10")))
        XCTAssertFalse(value.isFresh(at: later, request: CacheControl("min-fresh=40")))
        XCTAssertTrue(value.isFresh(at: arrived.addingTimeInterval(90), request: CacheControl("max-stale=60")))
        XCTAssertFalse(freshness(["cache-control": "max-age=60, must-revalidate"]).isFresh(at: arrived.addingTimeInterval(90), request: CacheControl("max-stale")))
        XCTAssertFalse(freshness(["cache-control": "no-cache, max-age=60"]).isFresh(at: arrived, request: CacheControl(nil)))
    }

    func testVaryAndValidators() {
        let value = freshness(["cache-control": "max-age=60", "vary": "Accept-Language, Accept", "etag": "\"v1\"",
                               "last-modified": "Sun, 06 Nov 1994 08:49:37 GMT"], request: ["accept-language": "de"])
        XCTAssertTrue(value.varyMatches(["accept-language": "de", "user-agent": "x"]))
        XCTAssertFalse(value.varyMatches(["accept-language": "fr"]))
        XCTAssertFalse(value.varyMatches(["accept-language": "de", "accept": "text/html"]))
        XCTAssertEqual(HTTPHeaders(value.conditionalFields),
                       HTTPHeaders(["If-None-Match": "\"v1\"", "If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"]))
        XCTAssertEqual(freshness(["cache-control": "max-age=60"]).conditionalFields, [])
    }

    func testA304UpdatesTheStoredFieldsButNotTheFraming() {
        let updated = CacheFreshness.updated(["Content-Length": "5", "ETag": "\"v1\"", "Cache-Control": "max-age=1", "X-Kept": "k"],
                                             with: ["content-length": "0", "cache-control": "max-age=60", "Date": "d"])
        XCTAssertEqual(updated, ["Content-Length": "5", "ETag": "\"v1\"", "cache-control": "max-age=60", "X-Kept": "k", "Date": "d"])
    }

    func testCacheControlIsReadAsTokensWithOptionalWhitespaceAndQuotes() {
        let spaced = CacheControl("\tMAX-AGE = 60 ,, No-Store\t, S-MAXAGE=\"+7\"")
        XCTAssertEqual(spaced.maxAge, 60, "names without case, whitespace around either side")
        XCTAssertEqual(spaced.sharedMaxAge, 7, "a signed number, quoted")
        XCTAssertTrue(spaced.noStore)
        XCTAssertEqual(CacheControl("max-age=-5").maxAge, 0, "a negative age is no age")
        XCTAssertEqual(CacheControl("max-age=99999999999999999999").maxAge, 0, "beyond Int: malformed, so stale")
        XCTAssertEqual(CacheControl("max-age=1 2").maxAge, 0)
        XCTAssertNil(CacheControl("min-fresh=x").minFresh)
        XCTAssertEqual(CacheControl("max-stale=").maxStale, Int.max, "an empty argument is no argument")
        XCTAssertTrue(CacheControl("=no-cache").noCache, "an empty name side is dropped")
        XCTAssertFalse(CacheControl("proxy-revalidate").mustRevalidate, "a shared cache's directive")
        XCTAssertEqual(CacheControl("max-age=5, max-age=7").maxAge, 7, "the last one read")
        XCTAssertEqual(CacheControl("="), CacheControl(nil))
    }

    func testRepeatedFieldsReadAsOneJoinedField() {
        let headers: HTTPHeaders = ["Cache-Control": "public", "Date": HTTPDate.format(sent), "cache-control": "max-age=60",
                                    "ETag": "\"v1\""]
        let value = CacheFreshness(status: 200, cacheFields: CacheFields(headers), requestFields: [:], requestTime: sent, responseTime: arrived)
        XCTAssertEqual(value.lifetime, 60, "the second Cache-Control field counts")
        XCTAssertEqual(value.entityTag, "\"v1\"")
        XCTAssertTrue(CacheFreshness.isStorable(method: "GET", requestFields: ["Authorization": "Bearer t"], status: 200, cacheFields: CacheFields(headers)),
                      "public in the first field allows an authorized response")
        XCTAssertFalse(CacheFreshness.isStorable(method: "GET", requestFields: ["CACHE-CONTROL": "no-store"], status: 200, cacheFields: CacheFields(headers)),
                       "the request's fields are read without case")
    }

    func testA304ReplacesEveryStoredFieldOfItsNameAndKeepsTheOrder() {
        let stored: HTTPHeaders = ["Content-Length": "5", "Via": "a", "ETag": "\"v1\"", "via": "b", "X-Kept": "k"]
        let notModified: HTTPHeaders = ["VIA": "c", "Connection": "close", "Via": "d", "Content-Length": "0"]
        XCTAssertEqual(CacheFreshness.updated(stored, with: notModified).fields.map { "\($0.name): \($0.value)" },
                       ["Content-Length: 5", "ETag: \"v1\"", "X-Kept: k", "VIA: c", "Via: d"])
    }
}
