import HTTPWire
import XCTest

/// The length of a response body as RFC 9112 §6 and §7 set it, checked on the parser alone:
/// `Transfer-Encoding` against `Content-Length` (§6.3 rules 3 and 4), malformed and repeated
/// lengths (§6.2, §6.3 rule 5), the chunked coding (§7.1: sizes, extensions, trailers, the end),
/// and the responses that have no body (RFC 9110 §6.4.1, §15.2: HEAD, 1xx, 204, 304, CONNECT).
final class ResponseFramingRulesTests: XCTestCase {
    /// The response to `method` parsed from `text` fed whole, and the bytes left after it; nil
    /// when it is not complete without the end of the stream.
    private func parse(_ text: String, method: String = "GET") throws(HTTPWireError) -> (response: HTTPResponse, unused: String)? {
        var parser = HTTPResponseParser(requestMethod: method)
        guard let response = try parser.feed(Array(text.utf8)) else { return nil }
        return (response, String(decoding: parser.unusedBytes, as: UTF8.self))
    }

    /// The error the parser throws for `text`, fed whole then closed; nil when there is none.
    private func failure(_ text: String, method: String = "GET") -> HTTPWireError? {
        var parser = HTTPResponseParser(requestMethod: method)
        do throws(HTTPWireError) {
            if try parser.feed(Array(text.utf8)) == nil { _ = try parser.finishAtEndOfStream() }
            return nil
        } catch {
            return error
        }
    }

    private func body(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    // MARK: §6.1 and §6.3: Transfer-Encoding

    /// Rule 3: with both fields, `Transfer-Encoding` frames the body and `Content-Length` is
    /// ignored, whichever comes first; so is it in an HTTP/1.0 response.
    func testTransferEncodingOverridesContentLength() throws {
        let chunks = "5\r\nhello\r\n0\r\n\r\nNEXT"
        for fields in ["Transfer-Encoding: chunked\r\nContent-Length: 3", "Content-Length: 30\r\nTransfer-Encoding: chunked"] {
            for version in ["HTTP/1.1", "HTTP/1.0"] {
                let parsed = try XCTUnwrap(try parse("\(version) 200 OK\r\n\(fields)\r\n\r\n\(chunks)"), "\(version) \(fields)")
                XCTAssertEqual(body(parsed.response), "hello", "\(version) \(fields)")
                XCTAssertEqual(parsed.unused, "NEXT", "\(version) \(fields)")
            }
        }
    }

    /// Rule 3 and §6.1: a chunked response with a `Content-Length`, or in HTTP/1.0, leaves its
    /// connection unfit for another request; a chunked or length-framed one alone does not.
    func testAmbiguousFramingLeavesTheConnectionUnfitForReuse() throws {
        let cases: [(head: String, reusable: Bool)] = [
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3", false),
            ("HTTP/1.1 200 OK\r\ncontent-length: 3\r\ntransfer-encoding: chunked", false),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked", false),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked", true),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5", true),
            ("HTTP/1.0 200 OK\r\nContent-Length: 5", true),
        ]
        for (head, reusable) in cases {
            var parser = HTTPResponseParser(requestMethod: "GET")
            XCTAssertTrue(parser.framingAllowsReuse, "before the head")
            let body = head.contains("chunked") ? "5\r\nhello\r\n0\r\n\r\n" : "hello"
            XCTAssertNotNil(try parser.feed(Array("\(head)\r\n\r\n\(body)".utf8)), head)
            XCTAssertEqual(parser.framingAllowsReuse, reusable, head)
        }
        var head = HTTPResponseParser(requestMethod: "HEAD")
        XCTAssertNotNil(try head.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n".utf8)))
        XCTAssertTrue(head.framingAllowsReuse, "a HEAD response has no body to frame")
    }

    /// Rule 4: a `Transfer-Encoding` whose last coding is not `chunked`, or that applies
    /// `chunked` twice, is not decoded: the body would be handed on still coded. The parser
    /// throws a typed error (a deliberate choice, `HTTPWireError.unsupportedTransferEncoding`)
    /// rather than return coded bytes as the body; letters of any case name `chunked`.
    func testATransferEncodingOtherThanAFinalChunkedIsRefused() throws {
        for value in ["gzip", "chunked, chunked", "chunked, gzip", "gzip, chunked", "identity", ""] {
            let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: \(value)\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            guard case .unsupportedTransferEncoding? = failure(text) else {
                return XCTFail("Transfer-Encoding: \(value) gave \(String(describing: failure(text)))")
            }
        }
        let parsed = try XCTUnwrap(try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: CHUNKED\r\n\r\n2\r\nok\r\n0\r\n\r\n"))
        XCTAssertEqual(body(parsed.response), "ok")
    }

    // MARK: §6.2 and §6.3 rule 5: Content-Length

    /// The same length repeated, in several fields or a list, is one length.
    func testTheSameContentLengthRepeatedIsOneLength() throws {
        for fields in ["Content-Length: 5, 5", "Content-Length: 5\r\nContent-Length: 5", "Content-Length: 5,5 , 5", "Content-Length:  5 "] {
            let parsed = try XCTUnwrap(try parse("HTTP/1.1 200 OK\r\n\(fields)\r\n\r\nhelloNEXT"), fields)
            XCTAssertEqual(body(parsed.response), "hello", fields)
            XCTAssertEqual(parsed.unused, "NEXT", fields)
        }
    }

    /// Lengths that differ, a sign, inner spaces, another base, an empty member or more digits
    /// than an `Int` holds are each an error, never a length.
    func testAMalformedOrAmbiguousContentLengthIsAnError() {
        let values = ["5, 6", "+5", "-5", "5 5", "0x5", "5,", ",5", "", "5.0", "１", "99999999999999999999", "9223372036854775808"]
        for value in values {
            let text = "HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\nhello"
            guard case .invalidContentLength? = failure(text) else {
                return XCTFail("Content-Length: \(value) gave \(String(describing: failure(text)))")
            }
        }
        guard case .invalidContentLength? = failure("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 4\r\n\r\nhello") else {
            return XCTFail("two fields that disagree")
        }
    }

    // MARK: §7.1: chunked

    private func chunked(_ chunks: String, version: String = "HTTP/1.1") -> String {
        "\(version) 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(chunks)"
    }

    /// A chunk-size is `1*HEXDIG`: leading zeros, however many, do not change it, and either
    /// case of letters is a digit.
    func testAChunkSizeWithLeadingZerosIsItsValue() throws {
        for size in ["05", "0005", String(repeating: "0", count: 15) + "5", String(repeating: "0", count: 40) + "5"] {
            let parsed = try XCTUnwrap(try parse(chunked("\(size)\r\nhello\r\n0\r\n\r\n")), "size \(size)")
            XCTAssertEqual(body(parsed.response), "hello", "size \(size)")
        }
        let parsed = try XCTUnwrap(try parse(chunked("a\r\n0123456789\r\nA\r\n0123456789\r\n00\r\n\r\n")))
        XCTAssertEqual(parsed.response.body.count, 20)
    }

    /// A chunk-size past what an `Int` holds is malformed, not a smaller size wrapped around.
    func testAHugeChunkSizeIsMalformed() {
        for size in ["10000000000000000", "FFFFFFFFFFFFFFFFF", "1" + String(repeating: "0", count: 40)] {
            guard case .malformedChunk? = failure(chunked("\(size)\r\nhello\r\n0\r\n\r\n")) else {
                return XCTFail("size \(size) gave \(String(describing: failure(chunked("\(size)\r\nhello\r\n0\r\n\r\n"))))")
            }
        }
    }

    /// Chunk extensions (with quoted values holding `;`) and whitespace before them or before
    /// the CRLF are skipped; the last chunk may have extensions too.
    func testChunkExtensionsAndWhitespaceAreSkipped() throws {
        let chunks = "5;name=value\r\nhello\r\n1 \r\n,\r\n6\t; a = \"x;y\" ;b\r\n world\r\n0 ;end\r\n\r\n"
        let parsed = try XCTUnwrap(try parse(chunked(chunks)))
        XCTAssertEqual(body(parsed.response), "hello, world")
    }

    /// The body ends only at the empty line after the last chunk and its trailer fields, which
    /// are collected apart from the head: cut anywhere before, it is truncated.
    func testTheBodyEndsOnlyAfterTheTrailerSection() throws {
        let whole = "3\r\nabc\r\n0\r\nX-Sum: 1\r\nX-Other: two\r\n\r\n"
        let parsed = try XCTUnwrap(try parse(chunked(whole + "NEXT")))
        XCTAssertEqual(body(parsed.response), "abc")
        XCTAssertEqual(parsed.response.trailers["x-sum"], "1")
        XCTAssertEqual(parsed.response.trailers["X-Other"], "two")
        XCTAssertNil(parsed.response.head.headers["X-Sum"])
        XCTAssertEqual(parsed.unused, "NEXT")
        for cut in ["3\r\nabc\r\n0\r\n", "3\r\nabc\r\n0\r\nX-Sum: 1\r\n", "3\r\nabc\r\n0\r\n\r", "3\r\nabc\r\n", "3\r\nab"] {
            XCTAssertNil(try parse(chunked(cut)), "complete after \(cut.debugDescription)")
            guard case .truncatedBody? = failure(chunked(cut)) else {
                return XCTFail("closed after \(cut.debugDescription): \(String(describing: failure(chunked(cut))))")
            }
        }
    }

    /// Chunk data is followed by its CRLF: a chunk longer than its size is malformed, as is a
    /// size line with something but whitespace and extensions after the digits.
    func testAChunkNotEndedByItsSizeIsMalformed() {
        for chunks in ["5\r\nhelloX\r\n0\r\n\r\n", "5 5\r\nhello\r\n0\r\n\r\n", "\r\n5\r\nhello\r\n0\r\n\r\n", ";x\r\n0\r\n\r\n", "-5\r\nhello\r\n0\r\n\r\n"] {
            guard case .malformedChunk? = failure(chunked(chunks)) else {
                return XCTFail("\(chunks.debugDescription) gave \(String(describing: failure(chunked(chunks))))")
            }
        }
    }

    // MARK: Responses without a body

    /// Interim 1xx responses (several, with fields) are skipped: the final response follows them,
    /// and their fields are not its own.
    func testInterimResponsesAreSkipped() throws {
        let text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
            + "HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokNEXT"
        let parsed = try XCTUnwrap(try parse(text, method: "POST"))
        XCTAssertEqual(parsed.response.head.status, 200)
        XCTAssertNil(parsed.response.head.headers["Link"])
        XCTAssertEqual(body(parsed.response), "ok")
        XCTAssertEqual(parsed.unused, "NEXT")
    }

    /// HEAD, 204, 304 and a 2xx to CONNECT have no body whatever their framing fields say: the
    /// response ends with its head and what follows is the next one's. A CONNECT refused has one.
    func testResponsesWithoutABodyEndWithTheirHead() throws {
        let cases: [(method: String, head: String)] = [
            ("HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 10"),
            ("HEAD", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked"),
            ("head", "HTTP/1.1 404 Not Found\r\nContent-Length: 10"),
            ("GET", "HTTP/1.1 204 No Content\r\nContent-Length: 10"),
            ("GET", "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\nContent-Encoding: gzip"),
            ("GET", "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked"),
            ("CONNECT", "HTTP/1.1 200 Connection Established\r\nContent-Length: 10"),
        ]
        for (method, head) in cases {
            let parsed = try XCTUnwrap(try parse("\(head)\r\n\r\nNEXT", method: method), "\(method): \(head)")
            XCTAssertTrue(parsed.response.body.isEmpty, "\(method): \(head)")
            XCTAssertEqual(parsed.unused, "NEXT", "\(method): \(head)")
        }
        let refused = try XCTUnwrap(try parse("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 4\r\n\r\ndeny", method: "CONNECT"))
        XCTAssertEqual(body(refused.response), "deny")
    }
}
