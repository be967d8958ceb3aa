import HTTPWire
import XCTest

final class HTTPRequestParserTests: XCTestCase {
    private let stream = Array((
        "POST /a HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
        + "PUT /b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nde\r\n0\r\nT: 1\r\n\r\n"
        + "GET /c HTTP/1.1\r\n\r\n"
    ).utf8)

    func testPipelinedRequestsAtEveryByteSplit() throws {
        for split in 0...stream.count {
            var parser = HTTPRequestParser()
            var requests: [HTTPRequest] = []
            for piece in [stream[..<split], stream[split...]] {
                parser.feed(piece)
                while let request = try parser.nextRequest() { requests.append(request) }
            }
            XCTAssertEqual(requests.map(\.head.target), ["/a", "/b", "/c"], "split \(split)")
            XCTAssertEqual(requests.map { String(decoding: $0.body, as: UTF8.self) }, ["abc", "de", ""], "split \(split)")
            XCTAssertEqual(parser.headCount, 3)
            XCTAssertTrue(parser.isIdle)
            XCTAssertNoThrow(try parser.finishAtEndOfStream())
        }
    }

    func testPendingHeadIsVisibleBeforeTheBody() throws {
        var parser = HTTPRequestParser()
        parser.feed("POST /up HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\nab".utf8)
        XCTAssertNil(try parser.nextRequest())
        XCTAssertEqual(parser.pendingHead?.target, "/up")
        XCTAssertEqual(parser.headCount, 1)
        XCTAssertThrowsError(try parser.finishAtEndOfStream()) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedBody(expected: 4, received: 2))
        }
        parser.feed("cd".utf8)
        XCTAssertEqual(try parser.nextRequest()?.body, Array("abcd".utf8))
    }

    func testDeclaredBodyOverTheLimitFailsBeforeItArrives() {
        var parser = HTTPRequestParser(maxBodyBytes: 10)
        parser.feed("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n".utf8)
        XCTAssertThrowsError(try parser.nextRequest()) {
            XCTAssertEqual($0 as? HTTPWireError, .bodyTooLarge(limit: 10))
        }
    }

    func testCutHeadAtEndOfStream() throws {
        var parser = HTTPRequestParser()
        parser.feed("GET / HTTP/1.1\r\nHo".utf8)
        XCTAssertNil(try parser.nextRequest())
        XCTAssertThrowsError(try parser.finishAtEndOfStream()) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedHead(received: 18))
        }
    }

    func testEndlessEmptyLinesDoNotAccumulate() throws {
        var parser = HTTPHeadParser(maxHeaderBytes: 64)
        for _ in 0..<1_000 {
            parser.feed("\r\n".utf8)
            XCTAssertNil(try parser.nextRequestHead())
        }
        XCTAssertTrue(parser.isEmpty)
        parser.feed("GET / HTTP/1.1\r\n\r\n".utf8)
        XCTAssertEqual(try parser.nextRequestHead()?.target, "/")
    }
}

/// The request parser is strict where a lenient one lets a second request be smuggled.
final class HTTPRequestParserStrictnessTests: XCTestCase {
    /// With a bare LF accepted, `Dummy: x\nContent-Length: 23` would frame a body that is really
    /// a second request (`GET /admin`) that a proxy reading the line as one field never saw.
    func testABareLineFeedInTheHeadIsRejected() {
        let smuggled = "POST / HTTP/1.1\r\nHost: a\r\nDummy: x\nContent-Length: 23\r\n\r\nGET /admin HTTP/1.1\r\n\r\n"
        var parser = HTTPRequestParser()
        parser.feed(smuggled.utf8)
        XCTAssertThrowsError(try parser.nextRequest()) { error in
            XCTAssertEqual(error as? HTTPWireError, .malformedHeader(offset: 34))
        }
    }

    func testABareLineFeedAfterTheRequestLineIsRejected() {
        var parser = HTTPRequestParser()
        parser.feed("GET / HTTP/1.1\nHost: a\r\n\r\n".utf8)
        XCTAssertThrowsError(try parser.nextRequest()) { error in
            XCTAssertEqual(error as? HTTPWireError, .malformedStartLine(offset: 14))
        }
    }

    /// The response parser stays tolerant of bare LF (RFC 9112 section 2.2 allows a recipient to).
    func testTheResponseParserStillAcceptsBareLineFeeds() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        let response = try parser.feed(Array("HTTP/1.1 200 OK\nContent-Length: 2\n\nok".utf8))
        XCTAssertEqual(response?.body, Array("ok".utf8))
    }

    /// A CONNECT request has no body whatever its fields say: what follows is tunnel data.
    func testConnectReadsNoBody() throws {
        var parser = HTTPRequestParser()
        parser.feed("CONNECT example.com:443 HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello".utf8)
        let request = try XCTUnwrap(try parser.nextRequest())
        XCTAssertEqual(request.head.method, "CONNECT")
        XCTAssertEqual(request.body, [])
        XCTAssertFalse(parser.isIdle, "the tunnel bytes stay buffered, unread as a body")
    }

    func testNonASCIIInTheTargetIsRejected() {
        var parser = HTTPRequestParser()
        parser.feed(Array("GET /caf".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\n\r\n".utf8))
        XCTAssertThrowsError(try parser.nextRequest())
    }
}
