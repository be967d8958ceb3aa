import HTTPWire
import XCTest

/// The parser's body buffers handed over and taken back: `plainBodyBytesExpected` says when the
/// bytes to come are body bytes taken as they are, `feedBody` makes such a buffer the body
/// uncopied, and `takeBody(reusing:)` decodes what follows into a buffer given back.
final class HTTPResponseParserBodyBufferTests: XCTestCase {
    private static func address(_ bytes: [UInt8]) -> UnsafePointer<UInt8>? {
        bytes.withUnsafeBufferPointer { $0.baseAddress }
    }

    func testAContentLengthBodyIsTakenAsItIsUpToItsEnd() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertEqual(parser.plainBodyBytesExpected, 0, "no head yet")
        XCTAssertNil(try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab".utf8)))
        XCTAssertEqual(parser.plainBodyBytesExpected, 8)
        XCTAssertEqual(parser.takeBody(), Array("ab".utf8))
        let read = Array("cdefg".utf8)
        let buffer = Self.address(read)
        XCTAssertNil(try parser.feedBody(read))
        XCTAssertEqual(Self.address(parser.body), buffer, "the buffer itself became the body")
        XCTAssertEqual(parser.plainBodyBytesExpected, 3)
        XCTAssertEqual(parser.bodyBytesReceived, 7)
        XCTAssertEqual(parser.takeBody(), Array("cdefg".utf8))
        let response = try XCTUnwrap(try parser.feedBody(Array("hij".utf8)), "the last bytes complete it")
        XCTAssertEqual(response.body, Array("hij".utf8))
        XCTAssertEqual(parser.plainBodyBytesExpected, 0, "complete")
        XCTAssertTrue(parser.unusedBytes.isEmpty)
    }

    func testBodyBytesWaitingAreAppendedTo() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nab".utf8)))
        XCTAssertNil(try parser.feedBody(Array("cd".utf8)))
        let response = try XCTUnwrap(try parser.feedBody(Array("ef".utf8)))
        XCTAssertEqual(response.body, Array("abcdef".utf8))
    }

    /// More bytes than the body has left go through `feed`: the rest is unused, not body.
    func testBytesPastTheBodysEndAreLeftUnused() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n".utf8)))
        let response = try XCTUnwrap(try parser.feedBody(Array("bodyHTTP/1.1".utf8)))
        XCTAssertEqual(response.body, Array("body".utf8))
        XCTAssertEqual(parser.unusedBytes, Array("HTTP/1.1".utf8))
    }

    func testACloseDelimitedBodyIsTakenUntilTheClose() throws {
        var parser = HTTPResponseParser(requestMethod: "GET", maxBodyBytes: 100)
        XCTAssertNil(try parser.feed(Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8)))
        XCTAssertEqual(parser.plainBodyBytesExpected, 100, "up to the size limit")
        XCTAssertNil(try parser.feedBody(Array("some ".utf8)))
        XCTAssertEqual(parser.plainBodyBytesExpected, 95)
        XCTAssertNil(try parser.feedBody(Array("bytes".utf8)))
        XCTAssertEqual(try parser.finishAtEndOfStream().body, Array("some bytes".utf8))
    }

    func testChunkedAndOversizedBodiesAreNotTakenAsTheyAre() throws {
        var chunked = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try chunked.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)))
        XCTAssertEqual(chunked.plainBodyBytesExpected, 0, "chunks need decoding")
        let response = try XCTUnwrap(try chunked.feedBody(Array("3\r\nabc\r\n0\r\n\r\n".utf8)), "decoded as `feed` does")
        XCTAssertEqual(response.body, Array("abc".utf8))

        var oversized = HTTPResponseParser(requestMethod: "GET", maxBodyBytes: 4)
        XCTAssertThrowsError(try oversized.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n".utf8))) { error in
            XCTAssertEqual(error as? HTTPWireError, .bodyTooLarge(limit: 4))
        }
        XCTAssertEqual(oversized.plainBodyBytesExpected, 0, "a body past the limit is never taken")
    }

    /// A spare given back is decoded into in place when no one else holds it, and left alone
    /// (the body goes to a new buffer) when someone does.
    func testTakeBodyReusesASpareOnlyWhenItIsNotShared() throws {
        var parser = HTTPResponseParser(requestMethod: "GET")
        XCTAssertNil(try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n".utf8)))
        let spare = [UInt8](repeating: 7, count: 64)
        let spareAddress = Self.address(spare)
        let taken = parser.takeBody(reusing: consume spare)
        XCTAssertEqual(taken, [])
        XCTAssertNil(try parser.feed(Array("abcd".utf8)))
        XCTAssertEqual(Self.address(parser.body), spareAddress, "decoded into the spare's buffer")

        let held = [UInt8](repeating: 9, count: 64)
        XCTAssertEqual(parser.takeBody(reusing: held), Array("abcd".utf8))
        let response = try XCTUnwrap(try parser.feed(Array("efgh".utf8)))
        XCTAssertEqual(response.body, Array("efgh".utf8))
        XCTAssertNotEqual(Self.address(parser.body), Self.address(held), "a shared spare is not written into")
        XCTAssertEqual(held, [UInt8](repeating: 9, count: 64), "and keeps its bytes")
    }
}
