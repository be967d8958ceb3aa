import EventLoopIO
import FeedServer
import Foundation
import HTTPWire
import TestSupport
import XCTest

/// What `FeedServer` writes and how it keeps or ends its connections, against RFC 9110 and
/// RFC 9112: raw requests on a real socket, the raw answers read back. A request for
/// `/echo?next` follows the one under test in the same write wherever the connection must stay
/// usable, and `/echo?smuggled` wherever nothing more may be answered.
final class ResponseWritingRulesTests: FeedServerTestCase {
    /// A pipelined request that must be answered after the one before it (and ends the exchange).
    static let next = "GET /echo?next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    /// The fields that end a request's head and the connection with it.
    static let last = "Host: x\r\nConnection: close\r\n\r\n"
    /// A pipelined request that must never be answered.
    static let smuggled = "GET /echo?smuggled HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Routes that answer a GET on their own, one of each kind of answer the routes write.
    static let routes = ["/echo", "/status/200", "/status/404?body=html", "/status/503?retryAfter=7", "/redirect/302/1",
                         "/bytes/100", "/drip?count=3&interval=0", "/chunked", "/images/a.jpg", "/images/truncated/a.jpg",
                         "/photos/nobody/", "/bomb/1000", "/flaky?failures=0", "/delay/0", "/no/such/route",
                         "/services/feeds/photos_public.gne?format=json&nojsoncallback=1"]

    /// `exchange`, with bytes that do not read as responses (a body where none belongs, say)
    /// reported as a failure of `raw` rather than thrown.
    func exchanged(_ server: FeedServer, _ raw: String, methods: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> Answer {
        do {
            return try exchange(server, raw, methods: methods)
        } catch {
            XCTFail("\(raw.debugDescription): the answer does not read as responses: \(error)", file: file, line: line)
            return Answer(responses: [], closed: false)
        }
    }

    /// Whether `response`'s query echoed back says `query` (an `/echo` answer).
    func echoed(_ response: HTTPResponse?, query: String) throws -> Bool {
        guard let response, response.head.status == 200 else { return false }
        return try json(response)["query"] as? String == query
    }

    /// The names of `head`'s fields, lower-cased, sorted, `Date` and `Connection` left out.
    func fieldNames(_ head: HTTPResponseHead) -> [String] {
        head.headers.fields.map { $0.name.lowercased() }.filter { $0 != "date" && $0 != "connection" }.sorted()
    }

    // MARK: - Date (RFC 9110 §6.6.1)

    /// Asserts `response` carries one `Date`, an IMF-fixdate within a minute of now.
    func assertDated(_ response: HTTPResponse?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let response else { return XCTFail("no answer to \(what)", file: file, line: line) }
        let dates = response.head.headers.fields.filter { $0.name.caseInsensitiveEquals("Date") }.map(\.value)
        XCTAssertEqual(dates.count, 1, "RFC 9110 §6.6.1: \(response.head.status) to \(what) has \(dates.count) Date fields",
                       file: file, line: line)
        guard let value = dates.first else { return }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: value), formatter.string(from: date) == value else {
            return XCTFail("not an IMF-fixdate: \(value)", file: file, line: line)
        }
        XCTAssertLessThan(abs(date.timeIntervalSinceNow), 60, value, file: file, line: line)
    }

    func testEveryRouteAnswersWithADate() throws {
        let server = try makeServer()
        for target in Self.routes + ["/status/204?body=empty", "/status/304", "/until-close/3"] {
            let answer = exchanged(server, "GET \(target) HTTP/1.1\r\n" + Self.last)
            assertDated(answer.responses.first, target)
        }
    }

    func testTheServersOwnErrorsCarryADate() throws {
        let server = try makeServer(.init(maxHeaderBytes: 512, maxBodyBytes: 16))
        let requests = [
            "GET /echo HTTP/1.1\r\n\r\n",  // 400: no Host
            "GET /echo HTTP/1.1\r\nHost: x\r\nBad Field: x\r\n\r\n",  // 400: malformed
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n",  // 413
            "GET /\(String(repeating: "a", count: 600)) HTTP/1.1\r\nHost: x\r\n\r\n",  // 414
            "GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 600))\r\n\r\n",  // 431
        ]
        for raw in requests {
            let answer = exchanged(server, raw)
            assertDated(answer.responses.first, raw.debugDescription)
        }
    }

    // MARK: - HEAD (RFC 9110 §9.3.2)

    func testHEADGetsGETsFieldsWithoutABodyAndTheConnectionGoesOn() throws {
        let server = try makeServer()
        for target in Self.routes {
            let get = try XCTUnwrap(exchanged(server, "GET \(target) HTTP/1.1\r\n" + Self.last).responses.first, target)
            let answer = exchanged(server, "HEAD \(target) HTTP/1.1\r\nHost: x\r\n\r\n" + Self.next, methods: ["HEAD"])
            XCTAssertEqual(answer.responses.count, 2, "HEAD \(target): the answer to the next request is missing or a body came")
            guard let head = answer.responses.first else { continue }
            XCTAssertEqual(head.head.status, get.head.status, target)
            XCTAssertEqual(fieldNames(head.head), fieldNames(get.head), "HEAD \(target): not GET's fields")
            // The echo's body names the method, and each feed page is a new one.
            if !target.hasPrefix("/echo"), !target.hasPrefix("/services") {
                XCTAssertEqual(head.head.headers["Content-Length"], get.head.headers["Content-Length"], target)
            }
            XCTAssertTrue(try echoed(answer.responses.last, query: "next"), "HEAD \(target): the next request was not answered as itself")
        }
    }

    // MARK: - No body, no length (RFC 9110 §8.6, §15.3.5, §15.4.5; RFC 9112 §6.3)

    func test204And304HaveNoBodyAndNoContentLengthToGETOrHEAD() throws {
        let server = try makeServer()
        for method in ["GET", "HEAD"] {
            for target in ["/status/204", "/status/204?body=html", "/status/304"] {
                let answer = exchanged(server, "\(method) \(target) HTTP/1.1\r\nHost: x\r\n\r\n" + Self.next, methods: [method])
                let what = "\(method) \(target)"
                XCTAssertEqual(answer.statuses.first, Int(target.dropFirst(8).prefix(3)), what)
                XCTAssertNil(answer.responses.first?.head.headers["Content-Length"], "\(what): a Content-Length on a bodiless status")
                XCTAssertNil(answer.responses.first?.head.headers["Transfer-Encoding"], what)
                XCTAssertTrue(try echoed(answer.responses.last, query: "next"), "\(what): the next request was not answered as itself")
            }
        }
    }

    func test205HasAnEmptyBodyItsLengthSays() throws {
        let server = try makeServer()
        for target in ["/status/205", "/status/205?body=html"] {
            let answer = exchanged(server, "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n" + Self.next)
            XCTAssertEqual(answer.statuses, [205, 200], target)
            XCTAssertEqual(answer.responses.first?.head.headers["Content-Length"], "0", "RFC 9110 §15.3.6: no content in a 205")
            XCTAssertEqual(answer.responses.first?.body, [], target)
            XCTAssertTrue(try echoed(answer.responses.last, query: "next"), target)
        }
    }

    // MARK: - HTTP/1.0 clients (RFC 9112 §6.1, §9.3; RFC 9110 §2.5)

    func testChunkedIsNeverSentToAnHTTP10Client() throws {
        let server = try makeServer()
        let answer = exchanged(server, "GET /chunked HTTP/1.0\r\n\r\n")
        let response = try XCTUnwrap(answer.responses.first)
        XCTAssertEqual(response.head.version, .http1_1, "RFC 9110 §2.5: the server's own version")
        XCTAssertNil(response.head.headers["Transfer-Encoding"], "RFC 9112 §6.1: a server MUST NOT send chunked to HTTP/1.0")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "Hello, chunked world! This body arrives in four chunks.")
        XCTAssertTrue(answer.closed)
    }

    func testAnHTTP10KeepAliveIsAnsweredWithKeepAliveAndKept() throws {
        let server = try makeServer()
        for target in ["/echo", "/status/200", "/bytes/5", "/drip?count=2&interval=0", "/chunked"] {
            let answer = exchanged(server, "GET \(target) HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /echo?next HTTP/1.0\r\n\r\n")
            XCTAssertEqual(answer.responses.count, 2, target)
            let first = try XCTUnwrap(answer.responses.first)
            XCTAssertEqual(first.head.headers["Connection"], "keep-alive", "\(target): kept open without saying so to HTTP/1.0")
            XCTAssertNotNil(first.head.headers["Content-Length"], target)
            XCTAssertTrue(try echoed(answer.responses.last, query: "next"), target)
            XCTAssertTrue(answer.closed, "\(target): the second HTTP/1.0 request did not ask to keep the connection")
        }
    }

    func testAnHTTP10RequestWithoutKeepAliveIsAnsweredThenClosed() throws {
        let server = try makeServer()
        for target in ["/echo", "/bytes/5", "/drip?count=2&interval=0", "/chunked", "/until-close/4"] {
            let answer = exchanged(server, "GET \(target) HTTP/1.0\r\n\r\n" + "GET /echo?smuggled HTTP/1.0\r\n\r\n")
            XCTAssertEqual(answer.responses.count, 1, target)
            XCTAssertEqual(answer.responses.first?.head.version, .http1_1, target)
            XCTAssertNotEqual(answer.responses.first?.head.headers["Connection"], "keep-alive", target)
            XCTAssertTrue(answer.closed, target)
            XCTAssertFalse(answer.answeredSmuggled, target)
        }
    }

    // MARK: - Closing (RFC 9112 §9.6) and pipelining (§9.3.2)

    func testConnectionCloseIsAnsweredWithCloseAndNothingAfter() throws {
        let server = try makeServer()
        for target in ["/echo", "/status/404", "/bytes/5", "/drip?count=2&interval=0", "/chunked", "/redirect/307/1", "/status/204"] {
            let answer = exchanged(server, "GET \(target) HTTP/1.1\r\n" + Self.last + Self.smuggled)
            XCTAssertEqual(answer.responses.count, 1, target)
            XCTAssertEqual(answer.responses.first?.head.headers["Connection"], "close", target)
            XCTAssertTrue(answer.closed, target)
            XCTAssertFalse(answer.answeredSmuggled, target)
        }
    }

    func testPipelinedRequestsAreAnsweredInOrderBehindASlowOne() throws {
        let server = try makeServer()
        let raw = "GET /delay/300 HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /echo?second HTTP/1.1\r\nHost: x\r\n\r\n"
            + "HEAD /bytes/3 HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /bytes/3 HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /echo?last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let answer = exchanged(server, raw, methods: ["GET", "GET", "HEAD"])
        XCTAssertEqual(answer.statuses, [200, 200, 200, 200, 200])
        guard answer.responses.count == 5 else { return }
        XCTAssertEqual(try json(answer.responses[0])["delayMilliseconds"] as? Int, 300)
        XCTAssertTrue(try echoed(answer.responses[1], query: "second"))
        XCTAssertEqual(answer.responses[2].body, [])
        XCTAssertEqual(answer.responses[3].body, [0, 1, 2])
        XCTAssertTrue(try echoed(answer.responses[4], query: "last"))
        XCTAssertTrue(answer.closed)
    }

    func testARequestPipelinedWhileASlowPictureWaitsIsAnsweredAfterIt() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.request("GET", "/images/slow/300/a.jpg")
        // The picture's wait has begun once its head is counted; the next request comes during it.
        XCTAssertTrue(waitUntil { server.requestCount(path: "/images/slow/300/a.jpg") == 1 })
        try client.send(Self.next)
        XCTAssertEqual(try client.response().head.headers["Content-Type"], "image/jpeg")
        XCTAssertTrue(try echoed(client.response(timeout: .seconds(3)), query: "next"), "RFC 9112 §9.3.2: the pipelined request went unanswered")
    }

    // MARK: - Bodies the route does not want (RFC 9112 §6.3, §9.3)

    func testABodySentToARouteThatIgnoresItIsNeverReadAsARequest() throws {
        let server = try makeServer()
        let inside = Array(Self.smuggled.utf8)
        let lengthFramed = "POST /status/200 HTTP/1.1\r\nHost: x\r\nContent-Length: \(inside.count)\r\n\r\n" + Self.smuggled + Self.next
        let chunkFramed = "POST /images/a.jpg HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + String(inside.count, radix: 16) + "\r\n" + Self.smuggled + "\r\n0\r\n\r\n" + Self.next
        for raw in [lengthFramed, chunkFramed] {
            let answer = exchanged(server, raw)
            XCTAssertEqual(answer.statuses, [200, 200], raw.debugDescription)
            XCTAssertFalse(answer.answeredSmuggled, raw.debugDescription)
            XCTAssertTrue(try echoed(answer.responses.last, query: "next"), raw.debugDescription)
        }
    }

    func testABodyTooLargeIsAnsweredWithCloseAndNeverReadAsARequest() throws {
        let server = try makeServer(.init(maxBodyBytes: 16))
        let answer = exchanged(server, "POST /status/200 HTTP/1.1\r\nHost: x\r\nContent-Length: \(Self.smuggled.utf8.count)\r\n\r\n" + Self.smuggled)
        XCTAssertEqual(answer.statuses, [413])
        XCTAssertEqual(answer.responses.first?.head.headers["Connection"], "close")
        XCTAssertTrue(answer.closed)
        XCTAssertFalse(answer.answeredSmuggled)
    }

    // MARK: - Nothing from the request becomes a field (RFC 9110 §5.5)

    func testAQueryCannotAddAFieldToTheAnswer() throws {
        let server = try makeServer()
        for value in ["1%0D%0AX-Injected:%20yes", "1%0AX-Injected:%20yes", "1%0DX-Injected:%20yes", "1%00"] {
            let answer = exchanged(server, "GET /status/503?retryAfter=\(value) HTTP/1.1\r\nHost: x\r\n\r\n" + Self.next)
            XCTAssertEqual(answer.responses.count, 2, value)
            for response in answer.responses {
                XCTAssertNil(response.head.headers["X-Injected"], value)
                for field in response.head.headers.fields {
                    XCTAssertFalse(field.value.utf8.contains { $0 == 0 || $0 == 0x0D || $0 == 0x0A }, "\(value): \(field)")
                }
            }
            XCTAssertTrue(try echoed(answer.responses.last, query: "next"), value)
        }
    }

    // MARK: - Methods (RFC 9110 §9.3.6)

    func testCONNECTIsNeverAnsweredAsAnOpenTunnel() throws {
        let server = try makeServer()
        for target in ["/echo", "/status/200", "127.0.0.1:\(server.port)"] {
            // Read as a GET's answer, so that a 2xx with a body still reads.
            let answer = exchanged(server, "CONNECT \(target) HTTP/1.1\r\nHost: x\r\n\r\n" + Self.smuggled)
            let status = try XCTUnwrap(answer.statuses.first, target)
            XCTAssertFalse((200..<300).contains(status), "CONNECT \(target): a 2xx opens a tunnel this server does not run")
            XCTAssertEqual(answer.statuses.count, 1, target)
            XCTAssertTrue(answer.closed, target)
        }
    }

    func testAMethodTheServerDoesNotImplementGets501AndTheConnectionGoesOn() throws {
        let server = try makeServer()
        for request in ["BREW /status/200", "get /status/200", "Head /bytes/10", "BREW /services/feeds/photos_public.gne", "BREW /nowhere"] {
            let answer = exchanged(server, "\(request) HTTP/1.1\r\nHost: x\r\n\r\n" + Self.next)
            XCTAssertEqual(answer.statuses.first, 501, "RFC 9110 §9.1: \(request) is no method the server implements")
            assertDated(answer.responses.first, request)
            XCTAssertTrue(try echoed(answer.responses.last, query: "next"), request)
        }
        // `/echo` implements every method: it echoes it.
        let echo = try json(XCTUnwrap(exchanged(server, "BREW /echo HTTP/1.1\r\n" + Self.last).responses.first))
        XCTAssertEqual(echo["method"] as? String, "BREW")
    }

    func testOPTIONSAsteriskIsAnsweredForTheServerItself() throws {
        let server = try makeServer()
        let answer = exchanged(server, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n" + Self.next)
        XCTAssertEqual(answer.statuses.first, 200, "RFC 9110 §9.3.7: OPTIONS * asks about the server, which is there")
        XCTAssertEqual(answer.responses.first?.head.headers["Allow"], "GET, HEAD, POST, PUT, DELETE, OPTIONS, TRACE, PATCH")
        XCTAssertEqual(answer.responses.first?.head.headers["Content-Length"], "0")
        XCTAssertTrue(try echoed(answer.responses.last, query: "next"))
    }

    // MARK: - stop() (FeedServer's documentation)

    func testStopClosesAConnectionWaitingOnASlowRouteWithoutAnAnswer() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.request("GET", "/delay/10000")
        let other = try connect(server)
        try other.request("GET", "/echo")
        XCTAssertEqual(try other.response().head.status, 200)
        let start = ContinuousClock.now
        server.stop()
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
        XCTAssertEqual(try client.readUntilClose(timeout: .seconds(5)), [], "a delayed answer closes without an answer when the server stops")
        XCTAssertEqual(try other.readUntilClose(timeout: .seconds(5)), [])
        XCTAssertEqual(server.openConnectionCount, 0)
    }
}
