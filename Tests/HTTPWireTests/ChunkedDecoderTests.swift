import HTTPWire
import XCTest

final class ChunkedDecoderTests: XCTestCase {
    func testEncoderOutputDecodesBackAtEveryByteSplit() throws {
        let body = Array((0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let encoded = ChunkedEncoder.encode(body, chunkSize: 64, trailers: ["X-T": "1"])
        for split in 0...encoded.count {
            var decoder = ChunkedDecoder()
            var decoded: [UInt8] = []
            let first = try decoder.decode(encoded[..<split], into: &decoded)
            XCTAssertEqual(first, split)
            try decoder.decode(encoded[split...], into: &decoded)
            XCTAssertTrue(decoder.isComplete, "split \(split)")
            XCTAssertEqual(decoded, body, "split \(split)")
            XCTAssertEqual(decoder.trailers["x-t"], "1")
        }
    }

    func testEncoderFraming() {
        XCTAssertEqual(ChunkedEncoder.chunk(Array("hello world!!!!!".utf8), extension: "a=b"), Array("10;a=b\r\nhello world!!!!!\r\n".utf8))
        XCTAssertEqual(ChunkedEncoder.chunk([UInt8]()), [])
        XCTAssertEqual(ChunkedEncoder.end(), Array("0\r\n\r\n".utf8))
    }

    func testStopsAtTheEndOfTheBody() throws {
        var decoder = ChunkedDecoder()
        var body: [UInt8] = []
        let input = Array("2\r\nab\r\n0\r\n\r\nNEXT".utf8)
        let used = try decoder.decode(input[...], into: &body)
        XCTAssertEqual(used, input.count - 4)
        XCTAssertEqual(body, Array("ab".utf8))
    }

    func testMalformedChunksReportOffsets() {
        assertError("zz\r\n", .malformedChunk(offset: 0))
        assertError("2\r\nabX\r\n", .malformedChunk(offset: 5))
        assertError("\r\n", .malformedChunk(offset: 0))
        assertError("1234567890abcdef0\r\n", .malformedChunk(offset: 15))
        assertError("2\rX", .malformedChunk(offset: 2))
        assertError("0\r\nbad trailer\r\n\r\n", .malformedChunk(offset: 15))
    }

    func testLongExtensionIsBounded() {
        var decoder = ChunkedDecoder(maxLineBytes: 16)
        var body: [UInt8] = []
        XCTAssertThrowsError(try decoder.decode(Array("1;\(String(repeating: "x", count: 40))\r\n".utf8)[...], into: &body)) {
            XCTAssertEqual($0 as? HTTPWireError, .malformedChunk(offset: 16))
        }
    }

    func testTruncatedChunkedBodyAtEndOfStream() throws {
        var decoder = HTTPBodyDecoder(framing: .chunked)
        var body: [UInt8] = []
        try decoder.decode(Array("5\r\nabc".utf8)[...], into: &body)
        XCTAssertThrowsError(try decoder.finishAtEndOfStream()) {
            XCTAssertEqual($0 as? HTTPWireError, .truncatedBody(expected: nil, received: 3))
        }
    }

    private func assertError(_ text: String, _ expected: HTTPWireError, line: UInt = #line) {
        var decoder = ChunkedDecoder()
        var body: [UInt8] = []
        XCTAssertThrowsError(try decoder.decode(Array(text.utf8)[...], into: &body), line: line) {
            XCTAssertEqual($0 as? HTTPWireError, expected, line: line)
        }
    }
}
