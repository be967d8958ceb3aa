import HTTPWire
import XCTest

final class HTTPHeadParserTests: XCTestCase {
    private let request = Array((
        "POST /upload/photo?x=1&y=%20 HTTP/1.1\r\n"
        + "Host: 127.0.0.1:8080\r\n"
        + "Content-Type: application/json\r\n"
        + "X-Empty:\r\n"
        + "X-Spaces:   padded value \t \r\n"
        + "Content-Length: 13\r\n"
        + "\r\n"
        + "{\"a\":\"hello\"}"
    ).utf8)

    private var expectedHead: HTTPRequestHead {
        HTTPRequestHead(method: "POST", target: "/upload/photo?x=1&y=%20", headers: [
            "Host": "127.0.0.1:8080",
            "Content-Type": "application/json",
            "X-Empty": "",
            "X-Spaces": "padded value",
            "Content-Length": "13",
        ])
    }

    func testRequestHeadAtEveryByteSplit() throws {
        for split in 0...request.count {
            var parser = HTTPHeadParser()
            parser.feed(request[..<split])
            var head = try parser.nextRequestHead()
            parser.feed(request[split...])
            if head == nil { head = try parser.nextRequestHead() }
            XCTAssertEqual(head, expectedHead, "split at \(split)")
            XCTAssertEqual(parser.buffered, Array("{\"a\":\"hello\"}".utf8), "split at \(split)")
        }
    }

    func testRequestHeadFedOneByteAtATime() throws {
        var parser = HTTPHeadParser()
        var head: HTTPRequestHead?
        var completedAt: Int?
        for (index, byte) in request.enumerated() where head == nil {
            parser.feed([byte])
            head = try parser.nextRequestHead()
            if head != nil { completedAt = index }
        }
        XCTAssertEqual(head, expectedHead)
        XCTAssertEqual(completedAt, request.count - 14)
        XCTAssertEqual(head?.path, "/upload/photo")
        XCTAssertEqual(head?.query, "x=1&y=%20")
        XCTAssertEqual(try head?.bodyFraming(), .contentLength(13))
    }

    func testPipelinedRequestsAndLeadingEmptyLines() throws {
        var parser = HTTPHeadParser()
        parser.feed("\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.0\nConnection: keep-alive\n\n".utf8)
        let first = try XCTUnwrap(try parser.nextRequestHead())
        let second = try XCTUnwrap(try parser.nextRequestHead())
        XCTAssertEqual(first.target, "/a")
        XCTAssertTrue(first.keepAlive)
        XCTAssertEqual(second.target, "/b")
        XCTAssertEqual(second.version, .http1_0)
        XCTAssertTrue(second.keepAlive)
        XCTAssertNil(try parser.nextRequestHead())
        XCTAssertTrue(parser.isEmpty)
    }

    func testConnectionCloseAndHTTP10Defaults() throws {
        var parser = HTTPHeadParser()
        parser.feed("GET / HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\nGET / HTTP/1.0\r\n\r\n".utf8)
        XCTAssertEqual(try parser.nextRequestHead()?.keepAlive, false)
        XCTAssertEqual(try parser.nextRequestHead()?.keepAlive, false)
    }

    func testOversizeHeadersThrowTypedError() {
        var parser = HTTPHeadParser(maxHeaderBytes: 64)
        parser.feed("GET / HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 100))\r\n\r\n".utf8)
        XCTAssertThrowsError(try parser.nextRequestHead()) { error in
            XCTAssertEqual(error as? HTTPWireError, .headersTooLarge(limit: 64))
        }
    }

    func testOversizeHeadersDetectedBeforeTheHeadEnds() {
        var parser = HTTPHeadParser(maxHeaderBytes: 32)
        parser.feed("GET / HTTP/1.1\r\nX-Endless: \(String(repeating: "b", count: 40))".utf8)
        XCTAssertThrowsError(try parser.nextRequestHead()) { error in
            XCTAssertEqual(error as? HTTPWireError, .headersTooLarge(limit: 32))
        }
    }

    func testHeadOfExactlyTheLimitIsAccepted() throws {
        let text = "GET / HTTP/1.1\r\nA: b\r\n\r\n"
        var parser = HTTPHeadParser(maxHeaderBytes: text.utf8.count)
        parser.feed(text.utf8)
        XCTAssertEqual(try parser.nextRequestHead()?.headers["a"], "b")
    }

    func testGarbageRequestLineReportsOffset() {
        assertRequestError("\u{16}\u{3}\u{1} binary junk\r\n\r\n", .malformedStartLine(offset: 0))
        assertRequestError("GET /path\r\n\r\n", .malformedStartLine(offset: 9))
        assertRequestError("GET /a b HTTP/1.1\r\n\r\n", .malformedStartLine(offset: 7))
        assertRequestError("GET / HTTP/2.0\r\n\r\n", .unsupportedVersion(offset: 6))
        assertRequestError("GET / HTXP/1.1\r\n\r\n", .malformedStartLine(offset: 6))
        assertRequestError("G(T / HTTP/1.1\r\n\r\n", .malformedStartLine(offset: 1))
    }

    func testMalformedHeaderFieldsReportOffset() {
        assertRequestError("GET / HTTP/1.1\r\nNoColon\r\n\r\n", .malformedHeader(offset: 23))
        assertRequestError("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", .malformedHeader(offset: 19))
        assertRequestError("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", .malformedHeader(offset: 22))
        assertRequestError("GET / HTTP/1.1\r\n: empty\r\n\r\n", .malformedHeader(offset: 16))
        assertRequestError("GET / HTTP/1.1\r\nA: b\u{0}c\r\n\r\n", .malformedHeader(offset: 20))
    }

    func testBodyFramingErrors() throws {
        XCTAssertThrowsError(try head("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n").bodyFraming()) {
            XCTAssertEqual($0 as? HTTPWireError, .invalidContentLength("-1"))
        }
        XCTAssertThrowsError(try head("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n").bodyFraming()) {
            XCTAssertEqual($0 as? HTTPWireError, .invalidContentLength("1, 2"))
        }
        XCTAssertThrowsError(try head("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n").bodyFraming()) {
            XCTAssertEqual($0 as? HTTPWireError, .unsupportedTransferEncoding("gzip"))
        }
        XCTAssertEqual(try head("POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n").bodyFraming(), .contentLength(5))
        XCTAssertEqual(try head("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\nContent-Length: 5\r\n\r\n").bodyFraming(), .chunked)
        XCTAssertEqual(try head("GET / HTTP/1.1\r\n\r\n").bodyFraming(), HTTPBodyFraming.none)
    }

    func testSerializedRequestParsesBack() throws {
        let message = HTTPRequest(head: HTTPRequestHead(method: "PUT", target: "/items/7", headers: ["Host": "localhost", "X-Trace": "abc"]), body: Array("payload".utf8))
        let bytes = message.serialized()
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "PUT /items/7 HTTP/1.1\r\nHost: localhost\r\nX-Trace: abc\r\nContent-Length: 7\r\n\r\npayload")
        var parser = HTTPHeadParser()
        parser.feed(bytes)
        let parsed = try XCTUnwrap(try parser.nextRequestHead())
        XCTAssertEqual(parsed.method, "PUT")
        XCTAssertEqual(parsed.headers["content-length"], "7")
        XCTAssertEqual(parser.buffered, Array("payload".utf8))
    }

    private func head(_ text: String) throws -> HTTPRequestHead {
        var parser = HTTPHeadParser()
        parser.feed(text.utf8)
        return try XCTUnwrap(try parser.nextRequestHead())
    }

    private func assertRequestError(_ text: String, _ expected: HTTPWireError, line: UInt = #line) {
        var parser = HTTPHeadParser()
        parser.feed(text.utf8)
        XCTAssertThrowsError(try parser.nextRequestHead(), line: line) { error in
            XCTAssertEqual(error as? HTTPWireError, expected, line: line)
        }
    }
}
