import FeedServer
import Foundation
import HTTPWire
import EventLoopIO
import XCTest

final class FeedServerRouteTests: FeedServerTestCase {
    private var server: FeedServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try makeServer()
    }

    func testEchoReturnsTheExactRequest() throws {
        let body = Array("{\"x\":1}\u{0}\u{FF}".utf8)
        let response = try get(server, "/echo?a=1&b=%20", method: "POST", headers: ["X-Token: abc", "X-Multi: 1", "X-Multi: 2"], body: body)
        XCTAssertEqual(response.head.status, 200)
        XCTAssertEqual(response.head.headers["Content-Type"], "application/json; charset=utf-8")
        let object = try json(response)
        XCTAssertEqual(object["method"] as? String, "POST")
        XCTAssertEqual(object["path"] as? String, "/echo")
        XCTAssertEqual(object["query"] as? String, "a=1&b=%20")
        let headers = try XCTUnwrap(object["headers"] as? [String: String])
        XCTAssertEqual(headers["X-Token"], "abc")
        XCTAssertEqual(headers["X-Multi"], "1, 2")
        XCTAssertEqual(headers["Content-Length"], String(body.count))
        XCTAssertEqual((object["body"] as? String).flatMap { Data(base64Encoded: $0) }, Data(body))
    }

    func testEchoEscapesWhatJSONMustEscape() throws {
        let value = "a\"b\\c/d \u{E9} \u{1F600}\tend"
        let response = try get(server, "/echo?next=/x\"y", headers: ["X-Odd: " + value, "X-Empty:"])
        let object = try json(response)
        let headers = try XCTUnwrap(object["headers"] as? [String: String])
        XCTAssertEqual(headers["X-Odd"], value)
        XCTAssertEqual(headers["X-Empty"], "")
        XCTAssertEqual(object["path"] as? String, "/echo")
        XCTAssertEqual(object["query"] as? String, "next=/x\"y")
        XCTAssertEqual(object["body"] as? String, "")
        XCTAssertEqual(object["method"] as? String, "GET")
    }

    func testEchoAcceptsExpectContinue() throws {
        let client = try connect(server)
        try client.send("PUT /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        let interim = try client.socket.read(timeout: .seconds(5))
        XCTAssertEqual(String(decoding: interim, as: UTF8.self), "HTTP/1.1 100 Continue\r\n\r\n")
        try client.send("abc")
        let response = try client.response(method: "PUT")
        XCTAssertEqual(try json(response)["body"] as? String, "YWJj")
    }

    func testStatusWithJSONHTMLAndEmptyBodies() throws {
        let jsonResponse = try get(server, "/status/503?retryAfter=7")
        XCTAssertEqual(jsonResponse.head.status, 503)
        XCTAssertEqual(jsonResponse.head.headers["Retry-After"], "7")
        XCTAssertEqual(try json(jsonResponse)["code"] as? String, "E503")
        XCTAssertEqual(try json(jsonResponse)["message"] as? String, "Service Unavailable")

        let html = try get(server, "/status/404?body=html")
        XCTAssertEqual(html.head.status, 404)
        XCTAssertTrue(html.head.headers["Content-Type"]?.hasPrefix("text/html") ?? false)
        XCTAssertTrue(String(decoding: html.body, as: UTF8.self).contains("<h1>404 Not Found</h1>"))

        let empty = try get(server, "/status/500?body=empty")
        XCTAssertEqual(empty.head.status, 500)
        XCTAssertEqual(empty.head.headers["Content-Length"], "0")
        XCTAssertEqual(empty.body, [])

        let noContent = try get(server, "/status/204")
        XCTAssertEqual(noContent.head.status, 204)
        XCTAssertNil(noContent.head.headers["Content-Length"])

        XCTAssertEqual(try get(server, "/status/99").head.status, 400)
        XCTAssertEqual(try get(server, "/status/abc").head.status, 400)
    }

    func testHeadRequestGetsNoBody() throws {
        let client = try connect(server)
        try client.request("HEAD", "/status/418")
        let response = try client.response(method: "HEAD")
        XCTAssertEqual(response.head.status, 418)
        XCTAssertEqual(response.body, [])
        try client.request("GET", "/status/200")
        XCTAssertEqual(try client.response().head.status, 200)
    }

    func testDelayAnswersAfterwards() throws {
        let response = try get(server, "/delay/50")
        XCTAssertEqual(response.head.status, 200)
        XCTAssertEqual(try json(response)["delayMilliseconds"] as? Int, 50)
    }

    func testHangNeverAnswers() throws {
        let client = try connect(server)
        try client.request("GET", "/hang")
        XCTAssertThrowsError(try client.socket.read(timeout: .milliseconds(300))) {
            XCTAssertEqual($0 as? SocketError, .timedOut(operation: .read))
        }
        XCTAssertEqual(server.requestCount(path: "/hang"), 1)
    }

    func testDropClosesWithoutBytes() throws {
        let client = try connect(server)
        try client.request("GET", "/drop")
        XCTAssertThrowsError(try client.response()) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedHead(received: 0))
        }
    }

    func testResetSendsRST() throws {
        let client = try connect(server)
        try client.request("GET", "/reset")
        XCTAssertThrowsError(try client.response()) {
            XCTAssertEqual($0 as? SocketError, .system(operation: .read, errno: ECONNRESET))
        }
    }

    func testHalfBodyIsTruncated() throws {
        let client = try connect(server)
        try client.request("GET", "/half")
        XCTAssertThrowsError(try client.response()) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedBody(expected: 1_000, received: 500))
        }
    }

    func testBytesStreamsTheRequestedCount() throws {
        let response = try get(server, "/bytes/100000")
        XCTAssertEqual(response.body.count, 100_000)
        XCTAssertTrue(response.body.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset) })
        XCTAssertEqual(try get(server, "/bytes/0").body, [])
        XCTAssertEqual(try get(server, "/bytes/-1").head.status, 400)
    }

    func testSixtyMegabytesArriveComplete() throws {
        let client = try connect(server)
        let count = 60 * 1_048_576
        try client.request("GET", "/bytes/\(count)")
        var parser = HTTPResponseParser(requestMethod: "GET")
        var response: HTTPResponse?
        for _ in 0..<100_000 where response == nil {
            let bytes = try client.socket.read(maxBytes: 1 << 20, timeout: .seconds(10))
            if bytes.isEmpty { break }
            response = try parser.feed(bytes)
        }
        XCTAssertEqual(response?.body.count, count)
        XCTAssertEqual(response?.body.last, UInt8(truncatingIfNeeded: count - 1))
    }

    func testDripSendsOneByteAtATime() throws {
        let client = try connect(server)
        try client.request("GET", "/drip?interval=20&count=4")
        var parser = HTTPResponseParser(requestMethod: "GET")
        var reads = 0
        var response: HTTPResponse?
        while response == nil, reads < 100 {
            let bytes = try client.socket.read(timeout: .seconds(5))
            XCTAssertFalse(bytes.isEmpty)
            reads += 1
            response = try parser.feed(bytes)
        }
        XCTAssertEqual(response?.body, Array("....".utf8))
        XCTAssertGreaterThanOrEqual(reads, 2)
    }

    func testGarbageIsNotHTTP() throws {
        let client = try connect(server)
        try client.request("GET", "/garbage")
        XCTAssertThrowsError(try client.response()) {
            XCTAssertEqual($0 as? HTTPWireError, .malformedStartLine(offset: 0))
        }
    }

    func testCutHeadersEndsInsideTheHead() throws {
        let client = try connect(server)
        try client.request("GET", "/cut-headers")
        XCTAssertEqual(String(decoding: try client.readUntilClose(), as: UTF8.self), "HTTP/1.1 200 OK\r\nContent-Ty")
        let second = try connect(server)
        try second.request("GET", "/cut-headers")
        XCTAssertThrowsError(try second.response()) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedHead(received: 27))
        }
    }

    func testWrongLengthDeclaresMoreThanItSends() throws {
        let client = try connect(server)
        try client.request("GET", "/wrong-length?actual=10&declared=25")
        XCTAssertThrowsError(try client.response()) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedBody(expected: 25, received: 10))
        }
        let longer = try connect(server)
        try longer.request("GET", "/wrong-length?actual=30&declared=5")
        let response = try longer.response()
        XCTAssertEqual(response.body.count, 5)
        XCTAssertEqual(response.head.headers["Connection"], "close")
    }

    func testChunkedBodyWithExtensionsAndTrailer() throws {
        let client = try connect(server)
        try client.request("GET", "/chunked", headers: ["Connection: close"])
        let raw = String(decoding: try client.readUntilClose(), as: UTF8.self)
        XCTAssertTrue(raw.contains(";name=value\r\n"))
        XCTAssertTrue(raw.contains("X-Checksum:"))
        let response = try get(server, "/chunked")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "Hello, chunked world! This body arrives in four chunks.")
        XCTAssertEqual(response.trailers["X-Checksum"], String(response.body.count))
        XCTAssertEqual(response.head.headers["Transfer-Encoding"], "chunked")
    }

    func testFlakyFailsTheFirstRequestsPerKey() throws {
        XCTAssertEqual(try get(server, "/flaky?failures=2&key=a").head.status, 503)
        XCTAssertEqual(try get(server, "/flaky?failures=2&key=b").head.status, 503)
        XCTAssertEqual(try get(server, "/flaky?failures=2&key=a").head.status, 503)
        let third = try get(server, "/flaky?failures=2&key=a")
        XCTAssertEqual(third.head.status, 200)
        XCTAssertEqual(try json(third)["attempt"] as? Int, 3)
        XCTAssertEqual(server.requestCount(path: "/flaky"), 4)
    }

    func testUnknownRouteIs404WithJSON() throws {
        let response = try get(server, "/nowhere?x=1")
        XCTAssertEqual(response.head.status, 404)
        XCTAssertEqual(try json(response)["code"] as? String, "E404")
    }
}
