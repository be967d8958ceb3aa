import HTTPWire
import XCTest

/// Inputs the fuzzers (`scripts/fuzz.sh`) turned up, kept as regression tests.
final class FuzzRegressionTests: XCTestCase {
    /// A pipelined stream whose first request has an unsupported version: the stream stops at
    /// that error whether it arrives whole or in 7-byte pieces, and nothing behind it parses.
    func testAnUnsupportedVersionStopsAPipelinedStreamHoweverItIsSplit() {
        let input = Array("GET / HTTP/0.1\r\n\r\nGET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8)

        var whole = HTTPRequestParser()
        whole.feed(input)
        XCTAssertThrowsError(try whole.nextRequest()) { error in
            XCTAssertEqual(error as? HTTPWireError, .unsupportedVersion(offset: 6))
        }

        var split = HTTPRequestParser()
        var parsed: [HTTPRequest] = []
        var firstError: HTTPWireError?
        for start in stride(from: 0, to: input.count, by: 7) where firstError == nil {
            split.feed(input[start..<min(start + 7, input.count)])
            do {
                while let request = try split.nextRequest() { parsed.append(request) }
            } catch {
                firstError = error
            }
        }
        XCTAssertEqual(parsed, [])
        XCTAssertEqual(firstError, .unsupportedVersion(offset: 6))
    }
}
