import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
@testable import Networking
import TestSupport
import XCTest

/// RFC 9111 rules checked through `SocketTransport` against a scripted server that counts what it
/// receives: invalidation by unsafe methods (with a body, of the stored `HEAD`, of `Location` and
/// `Content-Location`), a 304 to the caller's own conditional request, `Vary` on the cookie the
/// request sends, `HEAD` kept apart from `GET`, a 206 not stored, the request's own directives.
final class HTTPCacheRulesTests: LeakCheckingTestCase {
    private var server: ScriptedHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try ScriptedHTTPServer { _, _, head in
            let date = ("Date", HTTPDate.format(Date()))
            let body: String
            var fields = [date, ("Cache-Control", "max-age=60")]
            switch head.path {
            case "/changed" where head.method == "DELETE":
                return SessionTestSupport.answer(200, [date, ("Location", "/created"), ("Content-Location", "/described")], body: "done")
            case "/kept" where head.method == "DELETE":
                return SessionTestSupport.answer(404, [date], body: "none")
            case "/conditional":
                if head.headers["If-None-Match"] != nil { return SessionTestSupport.answer(304, fields + [("ETag", "\"c1\"")]) }
                return SessionTestSupport.answer(200, fields + [("ETag", "\"c1\"")], body: "full")
            case "/weak":
                if head.headers["If-None-Match"] == "W/\"w1\"" { return SessionTestSupport.answer(304, [date, ("ETag", "W/\"w1\"")]) }
                return SessionTestSupport.answer(200, [date, ("ETag", "W/\"w1\""), ("Cache-Control", "max-age=60")], body: "weak")
            case "/aged":
                // Stored already stale (dated two minutes ago, relayed with an Age), then each
                // revalidation a 304 with neither `Date` nor `Age`, as some servers answer.
                if head.headers["If-None-Match"] != nil { return SessionTestSupport.answer(304, [("ETag", "\"a1\"")]) }
                return SessionTestSupport.answer(200, [("Date", HTTPDate.format(Date(timeIntervalSinceNow: -120))), ("Age", "90"),
                                                       ("Cache-Control", "max-age=60"), ("ETag", "\"a1\"")], body: "aged")
            case "/partial":
                return SessionTestSupport.answer(206, fields + [("Content-Range", "bytes 0-3/10")], body: "part")
            case "/login":
                return SessionTestSupport.answer(200, [date, ("Set-Cookie", "session=s1; Path=/")], body: "welcome")
            case "/long-dates":
                // Runs of digits past any integer: each date field is parsed for the cache's decision.
                let digits = String(repeating: "9", count: 40)
                return SessionTestSupport.answer(200, [("Date", "Sun, \(digits) Nov 1994 08:49:37 GMT"), ("Expires", digits),
                                                       ("Last-Modified", "06 Nov \(digits) \(digits):49:37"), ("ETag", "\"d\"")],
                                                 body: "dated")
            case "/per-cookie":
                fields.append(("Vary", "Cookie"))
                body = head.headers["Cookie"] ?? "-"
            default:
                body = "\(head.method) \(head.path)"
            }
            guard head.method == "HEAD" else { return SessionTestSupport.answer(200, fields, body: body) }
            // A HEAD answer frames the body a GET would get, and carries none.
            let text = "HTTP/1.1 200 OK\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "Content-Length: \(body.utf8.count)\r\n\r\n"
            return .respond(Array(text.utf8))
        }
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func transport(_ cache: HTTPCache = HTTPCache(memoryCapacity: 1 << 20), cookies: HTTPCookieStorage? = nil) -> SocketTransport {
        SocketTransport(session: SessionOptions(cookieStorage: cookies, cache: cache))
    }

    private func request(_ path: String, method: String = "GET", body: String? = nil) -> URLRequest {
        var request = URLRequest(url: server.url(path))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    private func seen(_ path: String, method: String = "GET") -> [HTTPRequest] {
        server.requests.filter { $0.head.path == path && $0.head.method == method }
    }

    private func body(_ response: Response) -> String {
        String(decoding: response.data, as: UTF8.self)
    }

    /// §4.4: a POST or PUT carries a body; its success must invalidate the stored GET all the same.
    func testAnUnsafeRequestWithABodyInvalidatesTheStoredResponse() throws {
        let transport = transport()
        for method in ["POST", "PUT", "PATCH"] {
            _ = try SessionTestSupport.send(request("/item"), through: transport)
            _ = try SessionTestSupport.send(request("/item"), through: transport)
            let before = seen("/item").count
            XCTAssertEqual(try SessionTestSupport.send(request("/item", method: method, body: "{\"a\":1}"), through: transport).statusCode, 200)
            XCTAssertEqual(seen("/item", method: method).last?.body, Array("{\"a\":1}".utf8))
            _ = try SessionTestSupport.send(request("/item"), through: transport)
            XCTAssertEqual(seen("/item").count, before + 1, "a \(method) with a body invalidates the stored GET")
        }
    }

    /// A server's date fields holding runs of digits past any integer (`Date`, `Expires`,
    /// `Last-Modified`, which the cache parses for every answer it might keep) are no dates: the
    /// answer arrives, is not kept as fresh, and nothing overflows (it stopped the process before).
    func testDateFieldsWithLongRunsOfDigitsAreNoDatesAndStopNothing() throws {
        let transport = transport()
        for _ in 0..<2 {
            let response = try SessionTestSupport.send(request("/long-dates"), through: transport)
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(body(response), "dated")
        }
        XCTAssertEqual(seen("/long-dates").count, 2, "an answer without a date it can read is not fresh")
    }

    /// §4.4: the stored HEAD of the target URI goes too, and so do `Location` and `Content-Location`
    /// of the same origin; another origin's entry stays, and an error answer invalidates nothing.
    func testAnUnsafeMethodInvalidatesTheHeadAndTheSameOriginLocations() throws {
        let cache = HTTPCache(memoryCapacity: 1 << 20)
        let transport = transport(cache)
        let paths = ["/changed", "/created", "/described"]
        for path in paths { _ = try SessionTestSupport.send(request(path), through: transport) }
        _ = try SessionTestSupport.send(request("/changed", method: "HEAD"), through: transport)
        for path in paths { XCTAssertNotNil(cache.cachedResponse(for: request(path)), "\(path) stored") }
        XCTAssertNotNil(cache.cachedResponse(for: request("/changed", method: "HEAD")), "the HEAD stored")
        let foreign = try XCTUnwrap(URL(string: "http://elsewhere.invalid/created"))
        cache.store.store(try SessionTestSupport.send(request("/created"), through: transport), forKey: HTTPCache.key(method: "GET", url: foreign))

        _ = try SessionTestSupport.send(request("/kept"), through: transport)
        XCTAssertEqual(try SessionTestSupport.send(request("/kept", method: "DELETE"), through: transport).statusCode, 404)
        XCTAssertNotNil(cache.cachedResponse(for: request("/kept")), "a 404 to a DELETE invalidates nothing")

        _ = try SessionTestSupport.send(request("/changed", method: "DELETE"), through: transport)
        for path in paths { _ = try SessionTestSupport.send(request(path), through: transport) }
        _ = try SessionTestSupport.send(request("/changed", method: "HEAD"), through: transport)
        XCTAssertEqual(seen("/changed").count, 2, "the target URI")
        XCTAssertEqual(seen("/changed", method: "HEAD").count, 2, "the target URI's stored HEAD")
        XCTAssertEqual(seen("/created").count, 2, "Location")
        XCTAssertEqual(seen("/described").count, 2, "Content-Location")
        XCTAssertNotNil(cache.store.response(forKey: HTTPCache.key(method: "GET", url: foreign)), "another origin is left alone")
    }

    /// A 304 answers the caller's own conditional request; it is no full response, so it is never
    /// stored and never answers a plain request later.
    func testA304ToTheCallersOwnConditionalRequestIsNotStored() throws {
        let cache = HTTPCache(memoryCapacity: 1 << 20)
        let transport = transport(cache)
        var conditional = request("/conditional")
        conditional.setValue("\"c1\"", forHTTPHeaderField: "If-None-Match")
        XCTAssertEqual(try SessionTestSupport.send(conditional, through: transport).statusCode, 304)
        XCTAssertNil(cache.cachedResponse(for: request("/conditional")), "a 304 is not stored")
        let plain = try SessionTestSupport.send(request("/conditional"), through: transport)
        XCTAssertEqual(plain.statusCode, 200)
        XCTAssertEqual(body(plain), "full")
        XCTAssertEqual(seen("/conditional").count, 2)
    }

    /// A 304 without `Date` is dated when it arrives (RFC 9110 §6.6.1: a recipient with a clock
    /// adds the `Date` of a message it caches), and without `Age` it is a first-hand answer: the
    /// freshened response is fresh for its `max-age` again, not as old as the first 200 was.
    func testA304WithoutDateOrAgeFreshensTheStoredResponse() throws {
        let transport = transport()
        XCTAssertEqual(body(try SessionTestSupport.send(request("/aged"), through: transport)), "aged")
        XCTAssertEqual(body(try SessionTestSupport.send(request("/aged"), through: transport)), "aged")
        XCTAssertEqual(seen("/aged").count, 2, "the stale response was not revalidated")
        XCTAssertEqual(body(try SessionTestSupport.send(request("/aged"), through: transport)), "aged")
        XCTAssertEqual(seen("/aged").count, 2, "the freshened response was revalidated again at once")
    }

    /// §4.1: `Vary: Cookie` compares the cookie the request sends, which the cookie jar adds.
    /// Of the request's fields, only those `Vary` names are kept (and written to disk).
    func testVaryOnCookieComparesTheCookieTheRequestSends() throws {
        let cache = HTTPCache(memoryCapacity: 1 << 20)
        let transport = transport(cache, cookies: SessionTestSupport.storage())
        XCTAssertEqual(body(try SessionTestSupport.send(request("/per-cookie"), through: transport)), "-")
        XCTAssertEqual(body(try SessionTestSupport.send(request("/per-cookie"), through: transport)), "-")
        XCTAssertEqual(seen("/per-cookie").count, 1, "the same (absent) cookie: a hit")
        _ = try SessionTestSupport.send(request("/login"), through: transport)
        XCTAssertEqual(body(try SessionTestSupport.send(request("/per-cookie"), through: transport)), "session=s1")
        XCTAssertEqual(seen("/per-cookie").count, 2, "another cookie: a miss")
        XCTAssertEqual(body(try SessionTestSupport.send(request("/per-cookie"), through: transport)), "session=s1")
        XCTAssertEqual(seen("/per-cookie").count, 2)
        let slot = try XCTUnwrap(cache.store.slot(forKey: HTTPCache.key(method: "GET", url: server.url("/per-cookie"))))
        XCTAssertEqual(slot.requestFields, ["cookie": "session=s1"])
    }

    /// A HEAD is never answered with a stored GET's body, nor a GET with a stored HEAD's empty one.
    func testHeadAndGetAreStoredApart() throws {
        let transport = transport()
        _ = try SessionTestSupport.send(request("/both"), through: transport)
        let head = try SessionTestSupport.send(request("/both", method: "HEAD"), through: transport)
        XCTAssertEqual(head.data.count, 0)
        XCTAssertEqual(seen("/both", method: "HEAD").count, 1, "the stored GET does not answer a HEAD")
        XCTAssertEqual(try SessionTestSupport.send(request("/both", method: "HEAD"), through: transport).data.count, 0)
        XCTAssertEqual(seen("/both", method: "HEAD").count, 1, "the stored HEAD answers a HEAD")
        _ = try SessionTestSupport.send(request("/headfirst", method: "HEAD"), through: transport)
        XCTAssertEqual(body(try SessionTestSupport.send(request("/headfirst"), through: transport)), "GET /headfirst")
        XCTAssertEqual(seen("/headfirst").count, 1, "the stored HEAD does not answer a GET")
    }

    /// §4.3.1: a weak ETag goes back in `If-None-Match` as it came; §5.2.1.4, §5.2.1.1: the
    /// request's own `no-cache` or `max-age=0` revalidates a fresh entry.
    func testTheRequestsOwnNoCacheOrMaxAgeZeroRevalidatesWithTheWeakETagAsIs() throws {
        let transport = transport()
        _ = try SessionTestSupport.send(request("/weak"), through: transport)
        for directive in ["no-cache", "max-age=0"] {
            var forced = request("/weak")
            forced.setValue(directive, forHTTPHeaderField: "Cache-Control")
            let response = try SessionTestSupport.send(forced, through: transport)
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(body(response), "weak")
        }
        XCTAssertEqual(seen("/weak").map { $0.head.headers["If-None-Match"] }, [nil, "W/\"w1\"", "W/\"w1\""])
        _ = try SessionTestSupport.send(request("/weak"), through: transport)
        XCTAssertEqual(seen("/weak").count, 3, "still fresh for a plain request")
    }

    /// §5.2.1.7 and URLSession's `.returnCacheDataDontLoad`: nothing stored is a failure
    /// (`resourceUnavailable`, as URLSession's) with nothing sent; a 206 is never stored as the response.
    func testOnlyIfCachedWithNothingStoredFailsAndA206IsNotStored() throws {
        let transport = transport()
        var onlyIfCached = request("/partial")
        onlyIfCached.setValue("only-if-cached", forHTTPHeaderField: "Cache-Control")
        XCTAssertEqual(try SessionTestSupport.failure(onlyIfCached, through: transport).urlError?.code, .resourceUnavailable)
        XCTAssertTrue(seen("/partial").isEmpty)
        XCTAssertEqual(try SessionTestSupport.send(request("/partial"), through: transport).statusCode, 206)
        XCTAssertEqual(try SessionTestSupport.failure(onlyIfCached, through: transport).urlError?.code, .resourceUnavailable,
                       "the 206 was not stored")
        XCTAssertEqual(seen("/partial").count, 1)
    }

    /// §4.3.4: a 304 to the cache's own revalidation answers as the stored 200 even when the
    /// entry was evicted meanwhile (the exchange holds it), and stores it again, its framing kept.
    func testA304AfterTheStoredEntryWasEvictedAnswersAndStoresItAgain() throws {
        let cache = HTTPCache(memoryCapacity: 1 << 20)
        let stale = request("/weak")
        let url = try XCTUnwrap(stale.url)
        _ = try SessionTestSupport.send(stale, through: transport(cache))
        let later = Date().addingTimeInterval(120)
        guard case .send(let conditional, let stored?, let key) = cache.lookup(stale, url: url, method: "GET", fields: HTTPHeaders(),
                                                                              policy: .useProtocolCachePolicy, now: later) else {
            return XCTFail("a stale entry is revalidated")
        }
        XCTAssertEqual(conditional.map(\.value), ["W/\"w1\""])
        cache.removeAll()
        let head = HTTPResponseHead(status: 304, headers: ["Date": HTTPDate.format(later), "ETag": "W/\"w1\"", "Content-Length": "0"])
        let notModified = Response(statusCode: 304, data: Data(), request: stale, url: url, version: .http1_1, headers: head.headers,
                                   fileURL: nil, timings: nil)
        let answer = cache.received(notModified, head: head, for: stale, url: url, method: "GET", fields: HTTPHeaders(), stored: stored,
                                    key: key, requestTime: later, responseTime: later)
        XCTAssertEqual(answer.statusCode, 200)
        XCTAssertEqual(body(answer), "weak")
        XCTAssertEqual(answer.headerValue("Content-Length"), "4", "the stored body's length, not the 304's")
        XCTAssertEqual(cache.cachedResponse(for: stale).map(body), "weak", "stored again")
    }

    /// §4.2.1: a private cache ignores `s-maxage`; §4.1: `Vary: *` never matches a stored response.
    func testSharedMaxAgeIsIgnoredAndVaryStarNeverMatches() {
        let sent = Date(timeIntervalSince1970: 1_700_000_000)
        let shared = CacheFreshness(status: 200, fields: ["cache-control": "s-maxage=600", "date": HTTPDate.format(sent)],
                                    requestFields: [:], requestTime: sent, responseTime: sent)
        XCTAssertEqual(shared.lifetime, 0)
        XCTAssertFalse(CacheFreshness(status: 200, fields: ["cache-control": "max-age=60", "vary": "*"], requestFields: [:],
                                      requestTime: sent, responseTime: sent).varyMatches([:]))
        XCTAssertFalse(CacheFreshness.isStorable(method: "GET", requestFields: [:], status: 304, fields: ["cache-control": "max-age=60"]),
                       "a 304 is not a response to store")
    }
}
