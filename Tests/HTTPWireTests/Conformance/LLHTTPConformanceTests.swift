import HTTPWire
import XCTest

/// Both parsers against llhttp's strict test vectors: the messages a parser completes must be
/// exactly those llhttp completes (start line, fields, body), and input llhttp rejects must not
/// yield a message it did not complete. The few deliberate differences are listed with why.
final class LLHTTPConformanceTests: XCTestCase {
    /// Request vectors where this parser deliberately differs from llhttp, and why.
    static let requestDifferences: [String: String] = [
        "ANNOUNCE request with RTSP": "RTSP is not HTTP: only HTTP/1.0 and HTTP/1.1 are accepted",
        "OPTIONS request with RTSP": "RTSP is not HTTP",
        "SOURCE request with ICE": "ICE is not HTTP",
        "HTTP protocol and ANNOUNCE method": "any token is a method (RFC 9110 section 9.1); llhttp knows a fixed list",
        "Invalid method": "any token is a method (RFC 9110 section 9.1); llhttp knows a fixed list",
        "PRI request HTTP2": "llhttp stops at the HTTP/2 connection preface; here PRI is an ordinary token method",
        "No HTTP version": "HTTP/0.9 simple requests are refused",
        "POST with `chunked` as last transfer-encoding": "a coding before chunked is refused (501) rather than passed on undecoded",
        "POST with `chunked` as last transfer-encoding (multiple headers)": "a coding before chunked is refused (501)",
        "Space after chunk header": "whitespace before a chunk extension is BWS, which RFC 9112 section 7.1.1 allows",
        "`chunked` / No extension after semicolon": "an empty chunk extension is skipped like any other",
        "`keep-alive` / No restart when keep-alive is off (1.0)": "the parser reads on; the server closes after a request that does not keep the connection alive",
    ]

    /// Response vectors where this parser deliberately differs from llhttp, and why.
    static let responseDifferences: [String: String] = [
        "HTTP version 0.9": "HTTP/0.9 responses are refused",
        "ICE response": "ICE is not HTTP",
        "RTSP response": "RTSP is not HTTP",
        "Invalid space after start line / Only LFs present and no body": "a client accepts bare LF line ends (RFC 9112 section 2.2); only the server side is strict",
        "No extension after semicolon": "an empty chunk extension is skipped like any other",
        "Trailing space on chunked body": "whitespace before a chunk extension is BWS, which RFC 9112 section 7.1.1 allows",
        "`chunked` before other transfer-encoding": "only a lone chunked coding is read; anything else is refused",
        "`chunkedchunked` transfer-encoding does not enable chunked enconding": "an unknown coding is refused rather than read until close",
        "multiple transfer-encoding where chunked is not the last one": "only a lone chunked coding is read; anything else is refused",
    ]

    func testRequestParserAgreesWithLLHTTP() throws {
        let vectors = try LLHTTPVectors.strict(kind: "request")
        XCTAssertGreaterThan(vectors.count, 50)
        var disagreements: [String: String] = [:]
        for vector in vectors {
            let (ours, threw) = Self.parseRequests(vector.bytes)
            if let problem = Self.compare(ours, threw: threw, with: vector.expect) { disagreements[vector.name] = problem }
        }
        Self.check(disagreements, against: Self.requestDifferences)
    }

    func testResponseParserAgreesWithLLHTTP() throws {
        let vectors = try LLHTTPVectors.strict(kind: "response")
        XCTAssertGreaterThan(vectors.count, 30)
        var disagreements: [String: String] = [:]
        for vector in vectors {
            let (ours, threw) = Self.parseResponses(vector.bytes)
            if let problem = Self.compare(ours, threw: threw, with: vector.expect) { disagreements[vector.name] = problem }
        }
        Self.check(disagreements, against: Self.responseDifferences)
    }

    /// Every disagreement must be a listed difference, and every listed difference must still occur.
    private static func check(_ found: [String: String], against listed: [String: String],
                              file: StaticString = #filePath, line: UInt = #line) {
        for (name, problem) in found.sorted(by: { $0.key < $1.key }) where listed[name] == nil {
            XCTFail("disagrees with llhttp on \"\(name)\": \(problem)", file: file, line: line)
        }
        for name in listed.keys.sorted() where found[name] == nil {
            XCTFail("listed difference \"\(name)\" no longer occurs; remove it", file: file, line: line)
        }
    }

    /// nil when `ours` (and whether we threw) agrees with llhttp's expectation, else what differs.
    private static func compare(_ ours: [LLHTTPVectors.Message], threw: HTTPWireError?,
                                with expect: LLHTTPVectors.Expectation) -> String? {
        let theirs = expect.messages.filter { $0.complete && !$0.isInterim }
        if ours != theirs {
            return "completed \(ours.count) message(s) \(ours), llhttp \(theirs.count) \(theirs)"
        }
        let llhttpRejects = expect.error.map { !$0.isPause } ?? false
        if let threw, !llhttpRejects {
            return "rejected with \(threw), llhttp accepts"
        }
        return nil
    }

    private static func fields(_ headers: HTTPHeaders) -> [[String]] {
        headers.map { [$0.name, $0.value] }
    }

    private static func parseRequests(_ bytes: [UInt8]) -> ([LLHTTPVectors.Message], HTTPWireError?) {
        var parser = HTTPRequestParser()
        parser.feed(bytes)
        var messages: [LLHTTPVectors.Message] = []
        do {
            while let request = try parser.nextRequest() {
                messages.append(LLHTTPVectors.Message(
                    complete: true, headers: fields(request.head.headers), body: request.body,
                    method: request.head.method, url: request.head.target, statusCode: nil))
                if request.head.method == "CONNECT" { break }
            }
        } catch {
            return (messages, error)
        }
        return (messages, nil)
    }

    private static func parseResponses(_ bytes: [UInt8]) -> ([LLHTTPVectors.Message], HTTPWireError?) {
        var messages: [LLHTTPVectors.Message] = []
        var input = bytes
        do {
            while !input.isEmpty {
                var parser = HTTPResponseParser(requestMethod: "GET")
                guard let response = try parser.feed(input) else { break }
                messages.append(LLHTTPVectors.Message(
                    complete: true, headers: fields(response.head.headers), body: response.body,
                    method: nil, url: nil, statusCode: response.head.status))
                // After 101 the bytes belong to the protocol switched to.
                if response.head.status == 101 { break }
                input = parser.unusedBytes
            }
        } catch {
            return (messages, error)
        }
        return (messages, nil)
    }
}
