import HTTPWire
import XCTest

/// The status line as RFC 9112 §4 writes it and the client reads it, on the parser alone: the
/// reason phrase may be empty or absent, the code is three digits (100 to 599 are defined, and
/// RFC 9110 §15 has a client treat a code past 599 as a 5xx; one below 100 is refused, as curl
/// refuses it), the version is `HTTP/1.0` or `HTTP/1.1` (curl refuses `HTTP/1.2` too, despite RFC
/// 9110 §2.5's SHOULD), and empty lines before it are skipped.
final class StatusLineRulesTests: XCTestCase {
    /// The response to GET parsed from `text`, fed whole; nil when it is not complete.
    private func parse(_ text: String) throws(HTTPWireError) -> HTTPResponse? {
        var parser = HTTPResponseParser(requestMethod: "GET")
        return try parser.feed(Array(text.utf8))
    }

    private func failure(_ text: String) -> HTTPWireError? {
        do throws(HTTPWireError) {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    /// `HTTP/1.1 200 ` and `HTTP/1.1 200` (no reason phrase, with or without its space) are
    /// whole status lines; the reason is empty, never the standard one made up.
    func testAnEmptyOrAbsentReasonPhraseIsAccepted() throws {
        for line in ["HTTP/1.1 200 ", "HTTP/1.1 200", "HTTP/1.0 404 "] {
            let response = try XCTUnwrap(try parse("\(line)\r\nContent-Length: 2\r\n\r\nok"), line)
            XCTAssertEqual(response.head.status, Int(line.dropFirst(9).prefix(3)), line)
            XCTAssertEqual(response.head.reason, "", line)
            XCTAssertEqual(response.body, Array("ok".utf8), line)
        }
        let spaced = try XCTUnwrap(try parse("HTTP/1.1 200 All  is\tfine \r\nContent-Length: 0\r\n\r\n"))
        XCTAssertEqual(spaced.head.reason, "All  is\tfine ", "the phrase is kept as it came")
    }

    /// A code past 599 is a response (a 5xx to the caller, by RFC 9110 §15); one below 100, or
    /// not of three digits, is a malformed status line.
    func testCodesOutsideTheDefinedRange() throws {
        for code in [600, 999] {
            let response = try XCTUnwrap(try parse("HTTP/1.1 \(code) Odd\r\nContent-Length: 2\r\n\r\nok"))
            XCTAssertEqual(response.head.status, code)
            XCTAssertEqual(response.body, Array("ok".utf8))
        }
        for line in ["HTTP/1.1 099 Low", "HTTP/1.1 000 Zero", "HTTP/1.1 20 Short", "HTTP/1.1 2000 Long", "HTTP/1.1 +20 Sign",
                     "HTTP/1.1  200 Two spaces", "HTTP/1.1 200OK"] {
            guard case .malformedStartLine? = failure("\(line)\r\n\r\n") else { return XCTFail("\(line): \(String(describing: failure(line)))") }
        }
    }

    /// Only `HTTP/1.0` and `HTTP/1.1` are read: `HTTP/2.0`, `HTTP/1.2` and `HTTP/0.9` are an
    /// unsupported version, a malformed one (`HTTP/1.10`, `http/1.1`) a malformed line.
    func testOtherVersionsAreRefused() {
        for line in ["HTTP/2.0 200 OK", "HTTP/2 200", "HTTP/1.2 200 OK", "HTTP/0.9 200 OK", "HTTP/1.10 200 OK"] {
            XCTAssertEqual(failure("\(line)\r\n\r\n"), .unsupportedVersion(offset: 0), line)
        }
        XCTAssertEqual(failure("http/1.1 200 OK\r\n\r\n"), .malformedStartLine(offset: 0))
    }

    /// Empty lines before the status line (bare LF or CRLF, say after a body one CRLF too long)
    /// are skipped, between interim responses too.
    func testEmptyLinesBeforeTheStatusLineAreSkipped() throws {
        let response = try XCTUnwrap(try parse("\r\n\n\r\nHTTP/1.1 100 Continue\r\n\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
        XCTAssertEqual(response.head.status, 200)
        XCTAssertEqual(response.body, Array("ok".utf8))
    }
}
