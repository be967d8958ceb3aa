import Foundation
@testable import HTTPClient
import HTTPWire
import TestSupport
import XCTest

/// Content codings end to end (RFC 9110 §8.4 and §12.5.3, RFC 1950, 1951 and 1952), over real
/// sockets, with bodies made by zlib (`scripts/make-compression-fixtures.py`): what the client
/// asks for, what it decodes, and what `execute` and `stream` hand on; the two must agree.
final class ContentCodingRulesTests: HTTPClientTestCase {
    private var servers: [ScriptedHTTPServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    private static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("HTTPWireTests/Fixtures/compression")

    private func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name)))
    }

    /// How a scripted answer frames its body.
    private enum Framing: CaseIterable {
        case length, chunked, close
    }

    /// A server answering every request with `status` and `body` under `Content-Encoding:
    /// coding` (none when nil), framed as `framing` says.
    private func serve(_ body: [UInt8], coding: String?, framing: Framing = .length, status: String = "200 OK",
                       extra: String = "") throws -> ScriptedHTTPServer {
        var head = "HTTP/1.1 \(status)\r\n" + (coding.map { "Content-Encoding: \($0)\r\n" } ?? "") + extra
        var bytes: [UInt8]
        switch framing {
        case .length:
            head += "Content-Length: \(body.count)\r\n\r\n"
            bytes = Array(head.utf8) + body
        case .chunked:
            head += "Transfer-Encoding: chunked\r\n\r\n"
            bytes = Array(head.utf8)
            var offset = 0
            while offset < body.count {
                let piece = body[offset..<min(body.count, offset + 1000)]
                bytes += Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8)
                offset += piece.count
            }
            bytes += Array("0\r\n\r\n".utf8)
        case .close:
            head += "Connection: close\r\n\r\n"
            bytes = Array(head.utf8) + body
        }
        let answer = bytes
        let server = try ScriptedHTTPServer { _, _, _ in framing == .close ? .respondAndClose(answer) : .respond(answer) }
        servers.append(server)
        return server
    }

    /// What `execute` and `stream` (its body read to the end) each give for `request`.
    private func bothPaths(_ request: HTTPClientRequest)
        throws -> (buffered: Result<HTTPClientResponse, HTTPClientError>, streamed: Result<(HTTPResponseHead, [UInt8]), HTTPClientError>) {
        let buffered = try executeWithCompletion(request)
        let client = self.client!
        let streamed = try run { () async -> Result<(HTTPResponseHead, [UInt8]), HTTPClientError> in
            do throws(HTTPClientError) {
                let response = try await client.stream(request)
                var body: [UInt8] = []
                for try await chunk in response.body { body += chunk }
                return .success((response.head, body))
            } catch {
                return .failure(error)
            }
        }
        return (buffered, streamed)
    }

    /// Asserts that both paths give `expected` as the body of `request`.
    private func assertBoth(_ request: HTTPClientRequest, give expected: [UInt8], _ message: String,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let (buffered, streamed) = try bothPaths(request)
        switch buffered {
        case .success(let response):
            XCTAssertTrue(response.body == expected, "\(message): execute gave \(response.body.count) bytes, not \(expected.count)", file: file, line: line)
        case .failure(let error): XCTFail("\(message): execute failed with \(error)", file: file, line: line)
        }
        switch streamed {
        case .success(let (_, body)):
            XCTAssertTrue(body == expected, "\(message): stream gave \(body.count) bytes, not \(expected.count)", file: file, line: line)
        case .failure(let error): XCTFail("\(message): stream failed with \(error)", file: file, line: line)
        }
    }

    /// Asserts that both paths fail `request` with `.badResponse`.
    private func assertBothRefuse(_ request: HTTPClientRequest, _ message: String,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let (buffered, streamed) = try bothPaths(request)
        switch buffered {
        case .failure(.badResponse): break
        case .failure(let error): XCTFail("\(message): execute failed with \(error), not .badResponse", file: file, line: line)
        case .success(let response): XCTFail("\(message): execute gave \(response.body.count) bytes", file: file, line: line)
        }
        switch streamed {
        case .failure(.badResponse): break
        case .failure(let error): XCTFail("\(message): stream failed with \(error), not .badResponse", file: file, line: line)
        case .success(let (_, body)): XCTFail("\(message): stream gave \(body.count) bytes", file: file, line: line)
        }
    }

    // MARK: What the client asks for (RFC 9110 §12.5.3)

    /// `Accept-Encoding` names only the codings the client decodes (no `br`, `zstd`), once; a
    /// caller's own field (any case) is sent as given, alone, and what it brings is decoded
    /// still, as URLSession does; `.disabled` asks for nothing.
    func testTheClientAsksOnlyForWhatItDecodesAndACallersFieldWins() throws {
        let plain = try fixture("plain.txt")
        let server = try serve(try fixture("plain.gzip-1.gz"), coding: "gzip")
        try assertBoth(HTTPClientRequest(url: server.url("/default")), give: plain, "default")
        var own = HTTPClientRequest(url: server.url("/own"))
        own.headers.add(name: "accept-encoding", value: "gzip;q=1.0, br;q=0.5")
        try assertBoth(own, give: plain, "the caller's own Accept-Encoding")
        let disabled = HTTPClientRequest(url: server.url("/disabled"), decompression: .disabled)
        try assertBoth(disabled, give: try fixture("plain.gzip-1.gz"), "disabled")
        let sent = server.requests.map { ($0.head.target, $0.head.headers.values(for: "Accept-Encoding")) }
        XCTAssertEqual(sent.map(\.0), ["/default", "/default", "/own", "/own", "/disabled", "/disabled"])
        for (target, values) in sent {
            switch target {
            case "/default": XCTAssertEqual(values, ["gzip, deflate"], target)
            case "/own": XCTAssertEqual(values, ["gzip;q=1.0, br;q=0.5"], target)
            default: XCTAssertEqual(values, [], target)
            }
        }
    }

    // MARK: gzip (RFC 1952)

    /// Every optional header field (FEXTRA, FNAME, FCOMMENT, FHCRC), a series of members, and
    /// bytes after the last member (padding some servers add) decode, whatever the framing.
    func testGzipHeaderFieldsMembersAndTrailingBytesDecode() throws {
        let plain = try fixture("plain.txt")
        let named = try fixture("plain.gzip-9-named.gz")
        let bodies: [(String, [UInt8])] = [
            ("header fields", try fixture("plain.header-fields.gz")),
            ("two members", try fixture("plain.two-members.gz")),
            ("empty members around", try fixture("plain.empty-members.gz")),
            ("stored blocks", try fixture("plain.gzip-0-stored.gz")),
            ("trailing CRLF", named + Array("\r\n".utf8)),
            ("trailing zeros", named + [UInt8](repeating: 0, count: 512)),
        ]
        for (name, body) in bodies {
            for framing in Framing.allCases {
                let server = try serve(body, coding: "gzip", framing: framing)
                try assertBoth(HTTPClientRequest(url: server.url("/")), give: plain, "\(name), \(framing)")
            }
        }
    }

    /// A body that ends before its gzip data does (read to the connection's close, so the
    /// framing cannot tell) is an error, never a short success: cut in the header, the data, the
    /// trailer, and in a second member. A bad CRC-32 or ISIZE is an error too.
    func testACutOrMisSummedGzipBodyIsAnError() throws {
        let named = try fixture("plain.gzip-9-named.gz")
        let members = try fixture("plain.two-members.gz")
        var badCRC = named
        badCRC[badCRC.count - 8] ^= 0x01
        var badSize = named
        badSize[badSize.count - 4] ^= 0x01
        let bodies: [(String, [UInt8])] = [
            ("cut in the header", Array(named.prefix(6))),
            ("cut in the data", Array(named.prefix(named.count / 2))),
            ("cut in the trailer", Array(named.dropLast(3))),
            ("cut before the trailer", Array(named.dropLast(8))),
            ("cut in the second member", Array(members.dropLast(100))),
            ("bad CRC-32", badCRC),
            ("bad ISIZE", badSize),
        ]
        for (name, body) in bodies {
            let server = try serve(body, coding: "gzip", framing: .close)
            try assertBothRefuse(HTTPClientRequest(url: server.url("/")), name)
        }
        // Whole chunks of a cut body, the last ones of one byte each, decoded as they come.
        var answer = Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for byte in named.prefix(3_000) { answer += Array("1\r\n".utf8) + [byte] + Array("\r\n".utf8) }
        answer += Array("0\r\n\r\n".utf8)
        let chunks = answer
        let server = try ScriptedHTTPServer { _, _, _ in .respond(chunks) }
        servers.append(server)
        try assertBothRefuse(HTTPClientRequest(url: server.url("/")), "cut, in one-byte chunks")
    }

    // MARK: deflate (RFC 9110 §8.4.1.2, RFC 1950)

    /// `deflate` is zlib's format, and raw DEFLATE data (which servers send too) is accepted, as
    /// curl and browsers do; a bad Adler-32 or a cut zlib or raw stream is an error.
    func testDeflateIsZlibOrRawAndItsChecksIsAnError() throws {
        let plain = try fixture("plain.txt")
        let zlib = try fixture("plain.zlib-6.deflate")
        let raw = try fixture("plain.raw-9.deflate")
        let bodies: [(String, [UInt8], [UInt8])] = [
            ("zlib", zlib, plain), ("raw", raw, plain),
            ("zlib flushed as it went", try fixture("plain.flushed.deflate"), plain),
            ("empty zlib", try fixture("empty.zlib.deflate"), []), ("empty raw", try fixture("empty.raw.deflate"), []),
        ]
        for (name, body, expected) in bodies {
            for framing in Framing.allCases {
                let server = try serve(body, coding: "deflate", framing: framing)
                try assertBoth(HTTPClientRequest(url: server.url("/")), give: expected, "\(name), \(framing)")
            }
        }
        var badAdler = zlib
        badAdler[badAdler.count - 1] ^= 0x01
        for (name, body) in [("bad Adler-32", badAdler), ("cut zlib", Array(zlib.dropLast(2))), ("cut raw", Array(raw.prefix(raw.count / 2)))] {
            try assertBothRefuse(HTTPClientRequest(url: try serve(body, coding: "deflate", framing: .close).url("/")), name)
        }
    }

    // MARK: Names, stacks and unknown codings (RFC 9110 §8.4)

    /// Names without case, `x-gzip` as gzip, `identity` ignored, and stacked codings undone
    /// last-applied first, in both paths.
    func testNamesAliasesAndStackedCodingsDecodeInBothPaths() throws {
        let plain = try fixture("plain.txt")
        let cases: [(String, [UInt8])] = [
            ("X-GZIP", try fixture("plain.gzip-1.gz")),
            ("Gzip", try fixture("plain.gzip-1.gz")),
            ("DEFLATE", try fixture("plain.zlib-6.deflate")),
            ("identity, gzip", try fixture("plain.gzip-1.gz")),
            ("gzip, gzip", try fixture("plain.gzip-of-gzip.gz")),
            ("deflate, x-gzip", try fixture("plain.gzip-of-zlib.gz")),
            ("identity", plain),
            (" gzip ,", try fixture("plain.gzip-1.gz")),
        ]
        for (coding, body) in cases {
            let server = try serve(body, coding: coding, framing: .chunked)
            try assertBoth(HTTPClientRequest(url: server.url("/")), give: plain, coding)
        }
        // The codings of two field lines are one list (RFC 9110 §5.3).
        let stacked = try fixture("plain.gzip-of-zlib.gz")
        let twoLines = try serve(stacked, coding: "deflate", extra: "Content-Encoding: gzip\r\n")
        try assertBoth(HTTPClientRequest(url: twoLines.url("/")), give: plain, "two field lines")
    }

    /// A coding the client cannot undo (`br`, `zstd`, `foo`), alone or among others, leaves the
    /// body as received with its field: not an error, not half-decoded.
    func testUnknownCodingsPassThroughWithTheirField() throws {
        let gzip = try fixture("plain.gzip-1.gz")
        for coding in ["br", "zstd", "foo", "gzip, zstd", "br, gzip"] {
            let server = try serve(gzip, coding: coding)
            try assertBoth(HTTPClientRequest(url: server.url("/")), give: gzip, coding)
            let response = try executeWithCompletion(HTTPClientRequest(url: server.url("/"))).get()
            XCTAssertEqual(response.head.headers["Content-Encoding"], coding)
        }
    }

    /// More than five stacked codings (urllib3's bound; curl's is four, since CVE-2022-32206)
    /// leave the body as received, with its field, in both paths: a head listing 50,000 once stopped the process
    /// (an inflater and a stack frame each, on the loop thread) when streamed.
    func testAStackOfManyCodingsIsLeftAsReceived() throws {
        let gzip = try fixture("plain.gzip-1.gz")
        for count in [6, 50_000] {
            let coding = Array(repeating: "gzip", count: count).joined(separator: ",")
            let server = try serve(gzip, coding: coding)
            try assertBoth(HTTPClientRequest(url: server.url("/")), give: gzip, "\(count) codings")
        }
        let five = try serve(try fixture("plain.gzip-of-gzip.gz"), coding: "identity, gzip, gzip, identity")
        try assertBoth(HTTPClientRequest(url: five.url("/")), give: try fixture("plain.txt"), "identity is not counted")
    }

    // MARK: Bodiless answers (RFC 9110 §6.4.1)

    /// HEAD, 204, 304 and an empty 200 labelled gzip have no body to decode: none fails.
    func testBodilessAnswersWithAContentCodingDoNotFail() throws {
        let cases: [(method: String, status: String, length: String)] = [
            ("HEAD", "200 OK", "Content-Length: 34817\r\n"),
            ("GET", "204 No Content", ""),
            ("GET", "304 Not Modified", "Content-Length: 34817\r\n"),
        ]
        for (method, status, length) in cases {
            let answer = Array("HTTP/1.1 \(status)\r\nContent-Encoding: gzip\r\n\(length)\r\n".utf8)
            let server = try ScriptedHTTPServer { _, _, _ in .respond(answer) }
            servers.append(server)
            try assertBoth(HTTPClientRequest(url: server.url("/"), method: method), give: [], "\(method) \(status)")
        }
        let empty = try serve([], coding: "gzip")
        try assertBoth(HTTPClientRequest(url: empty.url("/")), give: [], "200 with Content-Length: 0")
    }

    // MARK: What the caller sees

    /// As URLSession: the body is decoded, the head kept as received (`Content-Encoding` names
    /// what was undone, `Content-Length` the size on the wire), the same in both paths.
    func testTheHeadStaysAsReceivedInBothPaths() throws {
        let gzip = try fixture("plain.gzip-1.gz")
        let server = try serve(gzip, coding: "gzip")
        let (buffered, streamed) = try bothPaths(HTTPClientRequest(url: server.url("/")))
        for head in [try buffered.get().head, try streamed.get().0] {
            XCTAssertEqual(head.headers["Content-Encoding"], "gzip")
            XCTAssertEqual(head.headers["Content-Length"], String(gzip.count))
        }
    }

    // MARK: Limits

    /// A decompression limit holds in both paths and fails typed, with the limit it passed.
    func testTheDecompressionLimitHoldsInBothPathsTyped() throws {
        let bomb = try fixture("zeros-64mb.gz")
        let server = try serve(bomb, coding: "gzip")
        for limit in [HTTPClientRequest.Decompression.Limit.size(1 << 20), .ratio(10), Limit(size: 1 << 22, ratio: 20)] {
            let request = HTTPClientRequest(url: server.url("/"), decompression: .enabled(limit: limit))
            let (buffered, streamed) = try bothPaths(request)
            for (path, error) in [("execute", buffered.map { _ in () }), ("stream", streamed.map { _ in () })] {
                guard case .failure(.decompressionLimitExceeded(let passed, let compressed)) = error else {
                    XCTFail("\(path) under \(limit): \(error)")
                    continue
                }
                XCTAssertLessThanOrEqual(passed, limit.size ?? .max, "\(path) under \(limit)")
                XCTAssertGreaterThan(compressed, 0)
            }
        }
    }

    private typealias Limit = HTTPClientRequest.Decompression.Limit
}
