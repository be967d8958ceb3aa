import EventLoopIO
import FeedServer
import Foundation
import HTTPWire
import XCTest

/// How `FeedServer` reads requests against RFC 9112 and RFC 9110 §7.2: raw bytes on a real
/// socket, the raw answer read back. Every request a test expects refused is followed, in the
/// same write, by a request for `/echo?smuggled`, which must never be answered.
final class RequestFramingRulesTests: FeedServerTestCase {
    /// The pipelined request that must never be answered after a refused one.
    static let smuggled = "GET /echo?smuggled HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Asserts that `raw` (then a smuggled request) gets one 400 and the connection closed.
    func assertRefused(_ server: FeedServer, _ raw: String, status: Int = 400, file: StaticString = #filePath, line: UInt = #line) throws {
        let answer = try exchange(server, raw + Self.smuggled)
        XCTAssertEqual(answer.statuses, [status], raw.debugDescription, file: file, line: line)
        XCTAssertTrue(answer.closed, "connection left open after \(raw.debugDescription)", file: file, line: line)
        XCTAssertFalse(answer.answeredSmuggled, raw.debugDescription, file: file, line: line)
    }

    // MARK: - Body framing (RFC 9112 §6)

    func testContentLengthWithTransferEncodingLetsChunkedWinThenCloses() throws {
        let server = try makeServer()
        // The body read as chunked ends after `0\r\n\r\n`; read by its Content-Length it would
        // end after `0\r\n\r\n` too, but a proxy reading the length could see another request.
        let answer = try exchange(server, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + Self.smuggled)
        XCTAssertEqual(answer.statuses, [200])
        XCTAssertEqual(answer.responses.first?.head.headers["Connection"], "close")
        XCTAssertEqual(try json(XCTUnwrap(answer.responses.first))["body"] as? String, Data("hello".utf8).base64EncodedString())
        XCTAssertTrue(answer.closed, "RFC 9112 §6.1: close after a request with both Content-Length and Transfer-Encoding")
        XCTAssertFalse(answer.answeredSmuggled)
    }

    func testTransferEncodingOnAnHTTP10RequestClosesAfterTheAnswer() throws {
        let server = try makeServer()
        let answer = try exchange(server, "POST /echo HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + Self.smuggled)
        XCTAssertEqual(answer.statuses, [200])
        XCTAssertTrue(answer.closed, "RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding is faulty framing")
        XCTAssertFalse(answer.answeredSmuggled)
    }

    func testTransferCodingsOtherThanAFinalChunkedAreRefused() throws {
        let server = try makeServer()
        for codings in ["gzip", "chunked, gzip", "gzip, chunked", "identity", ""] {
            try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(codings)\r\n\r\n0\r\n\r\n")
        }
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n0\r\n\r\n")
    }

    func testInvalidContentLengthsAreRefused() throws {
        let server = try makeServer()
        for value in ["+5", "-1", "5 5", "0x5", "5;", String(repeating: "9", count: 30), ""] {
            try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(value)\r\n\r\nhello")
        }
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!")
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n\r\nhello!")
    }

    func testRepeatedEqualContentLengthsAreOneLength() throws {
        let server = try makeServer()
        let answer = try exchange(server, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhelloGET /echo?next HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(answer.statuses, [200, 200])
        XCTAssertEqual(try json(answer.responses[1])["query"] as? String, "next")
    }

    // MARK: - Field syntax (RFC 9112 §5, §2.2)

    func testWhitespaceBeforeTheColonIsRefused() throws {
        let server = try makeServer()
        try assertRefused(server, "GET /echo HTTP/1.1\r\nHost : x\r\n\r\n")
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length\t: 5\r\n\r\nhello")
    }

    func testObsoleteLineFoldingIsRefused() throws {
        let server = try makeServer()
        try assertRefused(server, "GET /echo HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n")
        try assertRefused(server, "GET /echo HTTP/1.1\r\nHost: x\r\nX-A: a\r\n\tb\r\n\r\n")
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\n Content-Length: 5\r\n\r\nhello")
    }

    func testBareLineFeedsAndBareCarriageReturnsInTheHeadAreRefused() throws {
        let server = try makeServer()
        try assertRefused(server, "GET /echo HTTP/1.1\nHost: x\r\n\r\n")
        try assertRefused(server, "GET /echo HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n")
        try assertRefused(server, "GET /echo HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n")
        try assertRefused(server, "GET /echo HTTP/1.1\r\nHost: x\r\r\n\r\n")
        try assertRefused(server, "\nGET /echo HTTP/1.1\r\nHost: x\r\n\r\n")
    }

    func testLeadingEmptyLinesAreSkipped() throws {
        let server = try makeServer()
        let answer = try exchange(server, "\r\n\r\nGET /echo?n=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(answer.statuses, [200])
        XCTAssertFalse(answer.closed)
    }

    // MARK: - Request line (RFC 9112 §3)

    func testMalformedRequestLinesAreRefused() throws {
        let server = try makeServer()
        for line in ["GET  /echo HTTP/1.1", "GET /echo  HTTP/1.1", "GET\t/echo HTTP/1.1", "GET /echo\tHTTP/1.1",
                     "GET /echo http/1.1", "GET /echo HTTP/1.1 ", " GET /echo HTTP/1.1", "GET /echo", "GET /echo HTTP/0.9",
                     "GET /echo HTTP/2.0", "G(T /echo HTTP/1.1", "GET /echo HTTP/1.10"] {
            try assertRefused(server, line + "\r\nHost: x\r\n\r\n")
        }
    }

    func testAnAbsoluteFormTargetIsRoutedByItsPath() throws {
        let server = try makeServer()
        let answer = try exchange(server, "GET http://127.0.0.1:\(server.port)/echo?n=1 HTTP/1.1\r\nHost: other.example\r\n\r\n")
        XCTAssertEqual(answer.statuses, [200], "RFC 9112 §3.2.2: a server MUST accept the absolute-form")
        let echoed = try json(XCTUnwrap(answer.responses.first))
        XCTAssertEqual(echoed["path"] as? String, "/echo")
        XCTAssertEqual(echoed["query"] as? String, "n=1")
        let host = (echoed["headers"] as? [String: String])?["Host"]
        XCTAssertEqual(host, "127.0.0.1:\(server.port)", "the target's authority, not the Host field")
        XCTAssertEqual(server.requestCount(path: "/echo"), 1)
        let bare = try exchange(server, "GET HTTP://example.com HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(bare.statuses, [404], "an empty path is `/`: no route there")
        XCTAssertEqual(try json(XCTUnwrap(bare.responses.first))["message"] as? String, "No route for /")
    }

    func testTargetsOfNoFormTheMethodAllowsAreRefused() throws {
        let server = try makeServer()
        try assertRefused(server, "GET * HTTP/1.1\r\nHost: x\r\n\r\n")
        try assertRefused(server, "GET echo HTTP/1.1\r\nHost: x\r\n\r\n")
        try assertRefused(server, "GET 127.0.0.1:80 HTTP/1.1\r\nHost: x\r\n\r\n")
        try assertRefused(server, "GET ftp://x/echo HTTP/1.1\r\nHost: x\r\n\r\n")
        let options = try exchange(server, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(options.responses.count, 1)
        XCTAssertNotEqual(options.statuses.first, 400)
    }

    // MARK: - Host (RFC 9110 §7.2, RFC 9112 §3.2)

    func testHostIsRequiredOnceOnHTTP11() throws {
        let server = try makeServer()
        try assertRefused(server, "GET /echo HTTP/1.1\r\n\r\n")
        try assertRefused(server, "GET /echo HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        try assertRefused(server, "GET /echo HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n")
        try assertRefused(server, "GET /echo HTTP/1.1\r\nHost: a b\r\n\r\n")
        try assertRefused(server, "GET http://x/echo HTTP/1.1\r\n\r\n")
        XCTAssertEqual(try exchange(server, "GET /echo HTTP/1.0\r\n\r\n").statuses, [200], "HTTP/1.0 needs no Host")
        XCTAssertEqual(try exchange(server, "GET /echo HTTP/1.1\r\nHost:\r\n\r\n").statuses, [200], "an empty Host is allowed")
        XCTAssertEqual(try exchange(server, "GET /echo HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n").statuses, [200])
    }

    // MARK: - Chunked bodies (RFC 9112 §7)

    func testAnOverflowingChunkSizeIsRefused() throws {
        let server = try makeServer()
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000005\r\nhello\r\n0\r\n\r\n")
    }

    func testChunkExtensionsAndTrailersAreReadAndTheNextRequestFollows() throws {
        let server = try makeServer()
        let answer = try exchange(server, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value;flag\r\nhello\r\n1 ;q=\"a;b\"\r\n!\r\n0\r\nX-Trailer: t\r\n\r\n"
            + "GET /echo?next HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(answer.statuses, [200, 200])
        XCTAssertEqual(try json(answer.responses[0])["body"] as? String, Data("hello!".utf8).base64EncodedString())
        XCTAssertEqual(try json(answer.responses[1])["query"] as? String, "next")
        XCTAssertFalse(answer.closed)
    }

    func testAChunkedBodyWithoutItsFinalEmptyLineIsRefused() throws {
        let server = try makeServer()
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n")
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n")
    }

    // MARK: - Limits

    func testAnOverLongTargetGets414AndClosesWhileOthersAreServed() throws {
        let server = try makeServer(.init(maxHeaderBytes: 1_024))
        try assertRefused(server, "GET /echo?" + String(repeating: "a", count: 2_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", status: 414)
        try assertRefused(server, "\r\n\r\nGET /" + String(repeating: "a", count: 1_030) + " HTTP/1.1\r\nHost: x\r\n\r\n", status: 414)
        XCTAssertEqual(try get(server, "/echo").head.status, 200)
    }

    func testOverLongFieldsGet431AndCloseWhileOthersAreServed() throws {
        let server = try makeServer(.init(maxHeaderBytes: 1_024))
        try assertRefused(server, "GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 2_000) + "\r\n\r\n", status: 431)
        try assertRefused(server, "GET /" + String(repeating: "a", count: 900) + " HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 200) + "\r\n\r\n", status: 431)
        XCTAssertEqual(try get(server, "/echo").head.status, 200)
    }

    func testAnOverLongBodyGets413AndClosesWhileOthersAreServed() throws {
        let server = try makeServer(.init(maxBodyBytes: 100))
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n" + String(repeating: "a", count: 101), status: 413)
        try assertRefused(server, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n" + String(repeating: "a", count: 101) + "\r\n0\r\n\r\n", status: 413)
        XCTAssertEqual(try get(server, "/echo", method: "POST", body: Array(repeating: 0x61, count: 100)).head.status, 200)
    }

    func testAnOverLongBodyExpectingContinueGets413WithoutContinue() throws {
        let server = try makeServer(.init(maxBodyBytes: 100))
        let client = try connect(server)
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 101\r\n\r\n")
        let raw = String(decoding: try client.readUntilClose(), as: UTF8.self)
        XCTAssertTrue(raw.hasPrefix("HTTP/1.1 413 "), raw)
    }

    func testExpectContinueIsAnsweredBeforeTheBody() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        XCTAssertEqual(String(decoding: try client.socket.read(timeout: .seconds(5)), as: UTF8.self), "HTTP/1.1 100 Continue\r\n\r\n")
        try client.send("hello")
        XCTAssertEqual(try json(try client.response())["body"] as? String, Data("hello".utf8).base64EncodedString())
    }

    func testExpectContinueOnAnHTTP10RequestIsIgnored() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.send("POST /echo HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        // RFC 9110 section 10.1.1: a server MUST ignore a 100-continue expectation from HTTP/1.0.
        XCTAssertThrowsError(try client.socket.read(timeout: .milliseconds(500)), "nothing before the body") { error in
            XCTAssertEqual(error as? SocketError, .timedOut(operation: .read))
        }
        try client.send("hello")
        let raw = String(decoding: try client.readUntilClose(), as: UTF8.self)
        XCTAssertTrue(raw.hasPrefix("HTTP/1.1 200 "), raw)
    }

    // MARK: - Pipelining and Connection: close (RFC 9112 §9.3, §9.6)

    func testPipelinedRequestsAreAnsweredInOrderUntilConnectionClose() throws {
        let server = try makeServer()
        let answer = try exchange(server, "GET /echo?n=1 HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /echo?n=2 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
            + "GET /echo?n=3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + Self.smuggled)
        var queries: [String?] = []
        for response in answer.responses { queries.append(try json(response)["query"] as? String) }
        XCTAssertEqual(queries, ["n=1", "n=2", "n=3"])
        XCTAssertEqual(answer.responses.last?.head.headers["Connection"], "close")
        XCTAssertTrue(answer.closed)
        XCTAssertFalse(answer.answeredSmuggled)
    }
}
