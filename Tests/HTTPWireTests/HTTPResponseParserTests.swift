import HTTPWire
import XCTest

final class HTTPResponseParserTests: XCTestCase {
    private let chunkedMessage = Array((
        "HTTP/1.1 200 OK\r\n"
        + "Transfer-Encoding: chunked\r\n"
        + "Trailer: X-Checksum\r\n"
        + "\r\n"
        + "7;name=value\r\nHello, \r\n"
        + "A ; quoted=\"a;b\"\r\nchunked wo\r\n"
        + "3\r\nrld\r\n"
        + "0;final\r\n"
        + "X-Checksum: 20\r\n"
        + "X-Other: yes\r\n"
        + "\r\n"
    ).utf8)

    func testContentLengthResponseAtEveryByteSplit() throws {
        let message = Array("HTTP/1.1 201 Created\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhelloEXTRA".utf8)
        for split in 0...message.count {
            let response = try parse(message, splits: [split], method: "POST")
            XCTAssertEqual(response.response.head.status, 201, "split \(split)")
            XCTAssertEqual(response.response.head.reason, "Created")
            XCTAssertEqual(response.response.body, Array("hello".utf8), "split \(split)")
            XCTAssertEqual(response.unused, Array("EXTRA".utf8), "split \(split)")
        }
    }

    func testChunkedResponseWithExtensionsAndTrailersAtEveryByteSplit() throws {
        for split in 0...chunkedMessage.count {
            let parsed = try parse(chunkedMessage, splits: [split])
            XCTAssertEqual(String(decoding: parsed.response.body, as: UTF8.self), "Hello, chunked world", "split \(split)")
            XCTAssertEqual(parsed.response.trailers["x-checksum"], "20", "split \(split)")
            XCTAssertEqual(parsed.response.trailers["X-Other"], "yes")
        }
    }

    func testChunkedResponseAtEveryPairOfSplits() throws {
        for first in stride(from: 0, through: chunkedMessage.count, by: 3) {
            for second in first...chunkedMessage.count {
                let parsed = try parse(chunkedMessage, splits: [first, second])
                XCTAssertEqual(parsed.response.body.count, 20)
            }
        }
    }

    func testCloseDelimitedBodyEndsAtEndOfStream() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try parser.feed(Array("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nsome ".utf8)))
        XCTAssertNil(try parser.feed(Array("bytes".utf8)))
        let response = try parser.finishAtEndOfStream()
        XCTAssertEqual(response.body, Array("some bytes".utf8))
    }

    /// RFC 9112 §9.8: after an incomplete close (TLS without `close_notify`) a body delimited by
    /// the close is not complete, while one framed by its length or its chunks still is.
    func testAnIncompleteCloseEndsOnlyABodyFramedByItself() throws {
        var cut = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try cut.feed(Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nsome ".utf8)))
        XCTAssertThrowsError(try cut.finishAtEndOfStream(.incomplete)) {
            XCTAssertEqual($0 as? HTTPWireError, .incompleteClose(received: 5))
        }
        var whole = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try whole.feed(Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nsome bytes".utf8)))
        XCTAssertEqual(try whole.finishAtEndOfStream(.complete).body, Array("some bytes".utf8))

        var short = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try short.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8)))
        XCTAssertThrowsError(try short.finishAtEndOfStream(.incomplete)) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedBody(expected: 10, received: 3), "cut by its framing, however it closed")
        }
        var chunks = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try chunks.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n".utf8)))
        XCTAssertThrowsError(try chunks.finishAtEndOfStream(.incomplete)) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedBody(expected: nil, received: 3))
        }
        var empty = HTTPResponseParser(requestMethod: "GET")
        XCTAssertEqual(try empty.feed(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))?.head.status, 204)
        XCTAssertNoThrow(try empty.finishAtEndOfStream(.incomplete), "no body: nothing to cut")
        XCTAssertEqual(HTTPWireError.incompleteClose(received: 5).description,
                       "connection closed without close_notify after 5 bytes of a body delimited by the close")
    }

    func testHeadAnd204And304HaveNoBody() throws {
        for (method, status) in [("HEAD", 200), ("GET", 204), ("GET", 304)] {
            var parser = HTTPResponseParser(requestMethod: method)
            let response = try parser.feed(Array("HTTP/1.1 \(status) X\r\nContent-Length: 10\r\n\r\n".utf8))
            XCTAssertEqual(response?.head.status, status)
            XCTAssertEqual(response?.body, [])
        }
    }

    func testInterimContinueIsSkipped() throws {
        var parser = HTTPResponseParser(requestMethod: "POST")
        let response = try parser.feed(Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
        XCTAssertEqual(response?.head.status, 200)
        XCTAssertEqual(response?.body, Array("ok".utf8))
    }

    func testResponseCutInsideHeadersIsTruncatedHead() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Ty".utf8)))
        XCTAssertThrowsError(try parser.finishAtEndOfStream()) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedHead(received: 27))
        }
    }

    func testBodyShorterThanContentLengthIsTruncatedBody() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8)))
        XCTAssertThrowsError(try parser.finishAtEndOfStream()) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedBody(expected: 10, received: 3))
        }
    }

    func testGarbageStatusLine() {
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertThrowsError(try parser.feed(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8))) {
            XCTAssertEqual($0 as? HTTPWireError, .malformedStartLine(offset: 0))
        }
        var second = HTTPResponseParser(requestMethod: "GET")
        XCTAssertThrowsError(try second.feed(Array("HTTP/1.1 2x0 OK\r\n\r\n".utf8))) {
            XCTAssertEqual($0 as? HTTPWireError, .malformedStartLine(offset: 9))
        }
    }

    func testBodyLimit() {
        var parser = HTTPResponseParser(requestMethod: "GET", maxBodyBytes: 4)
        XCTAssertThrowsError(try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n".utf8))) {
            XCTAssertEqual($0 as? HTTPWireError, .bodyTooLarge(limit: 4))
        }
        var chunked = HTTPResponseParser(requestMethod: "GET", maxBodyBytes: 4)
        XCTAssertThrowsError(try chunked.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\n".utf8))) {
            XCTAssertEqual($0 as? HTTPWireError, .bodyTooLarge(limit: 4))
        }
    }

    func testSerializedResponseParsesBack() throws {
        let response = HTTPResponse(head: HTTPResponseHead(status: 404, headers: ["Content-Type": "application/json"]), body: Array("{}".utf8))
        let bytes = response.serialized()
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertEqual(try parser.feed(bytes)?.body, Array("{}".utf8))
    }

    private func parse(_ message: [UInt8], splits: [Int], method: String = "GET") throws -> (response: HTTPResponse, unused: [UInt8]) {
        var parser = HTTPResponseParser(requestMethod: method)
        var start = 0
        var result: HTTPResponse?
        for end in splits + [message.count] {
            let piece = message[start..<max(start, end)]
            start = max(start, end)
            if result == nil {
                result = try parser.feed(piece)
            } else {
                _ = try parser.feed(piece)
            }
        }
        return (try XCTUnwrap(result), parser.unusedBytes)
    }
}
