import Foundation
import HTTPClient
import HTTPWire
import EventLoopIO
import TestSupport
import XCTest

/// Whether a connection serves another request after a response, over real sockets, as RFC 9112
/// §6.1, §6.3 and §9.3-9.6 say: framing that may be a smuggling attempt, `Connection: close`,
/// HTTP/1.0, responses without a body, interim responses and bytes past the response; and the
/// `Content-Encoding` of a response body (RFC 9110 §8.4) as `execute` hands it on.
final class ConnectionReuseRulesTests: ScriptedServerTestCase {

    /// A request answered and the connection (numbered from 1) it came on.
    private struct Received: Sendable {
        let connection: Int
        let target: String
    }

    /// Sends a `method` request answered by `first` (bytes as they are, the connection then kept
    /// open by the server), then a `GET /second`; returns the first outcome and whether the
    /// second request went on the first one's connection. The second answer is checked here.
    private func reused(after first: String, method: String = "GET",
                        file: StaticString = #filePath, line: UInt = #line) throws -> (Result<HTTPClientResponse, HTTPClientError>, reused: Bool) {
        let log = Recorder<Received>()
        let answer = Array(first.utf8)
        let server = try ScriptedHTTPServer { connection, _, head in
            log.append(Received(connection: connection, target: head.target))
            return .respond(head.target == "/second" ? Self.second : answer)
        }
        keep(server)
        let outcome = try execute(HTTPClientRequest(url: server.url("/first"), method: method))
        let next = try execute(HTTPClientRequest(url: server.url("/second")))
        XCTAssertEqual(try next.get().body, Array("second".utf8), "the second request got its own answer", file: file, line: line)
        let connections = log.values.map(\.connection)
        XCTAssertEqual(log.values.map(\.target), ["/first", "/second"], file: file, line: line)
        return (outcome, connections.count == 2 && connections[0] == connections[1])
    }

    // MARK: Framing (RFC 9112 §6.1, §6.3)

    /// Rule 3: `Transfer-Encoding` with `Content-Length` frames the body by its chunks, and the
    /// connection is closed after it (the message may be a smuggling attempt); so is it after a
    /// chunked HTTP/1.0 response, however it says keep-alive (§6.1: its framing is faulty).
    func testAResponseWithTransferEncodingAndContentLengthIsNeverPooled() throws {
        for head in ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3",
                     "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked",
                     "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked"] {
            let (outcome, reused) = try reused(after: "\(head)\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            XCTAssertEqual(try outcome.get().body, Array("hello".utf8), head)
            XCTAssertFalse(reused, "\(head): pooled")
        }
        let (chunked, reused) = try reused(after: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        XCTAssertEqual(try chunked.get().body, Array("hello".utf8))
        XCTAssertTrue(reused, "a plain chunked response leaves its connection reusable")
    }

    /// Rule 4: a `Transfer-Encoding` not ending in `chunked` fails the request with a typed error
    /// (a deliberate choice: the body would be handed on still coded), and the connection is closed.
    func testATransferEncodingNotEndingInChunkedFailsAndCloses() throws {
        for value in ["gzip", "chunked, chunked", "chunked, gzip"] {
            let (outcome, reused) = try reused(after: "HTTP/1.1 200 OK\r\nTransfer-Encoding: \(value)\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            guard case .failure(.badResponse(.unsupportedTransferEncoding)) = outcome else {
                return XCTFail("Transfer-Encoding: \(value) gave \(outcome)")
            }
            XCTAssertFalse(reused, "Transfer-Encoding: \(value): pooled")
        }
    }

    // MARK: Persistence (RFC 9112 §9.3)

    /// `Connection: close` (in any case, in a list) and HTTP/1.0 without keep-alive close the
    /// connection, even when the server leaves it open; HTTP/1.0 with keep-alive and a length may
    /// be reused.
    func testConnectionCloseAndHTTP10DecideReuse() throws {
        let cases: [(head: String, reusable: Bool)] = [
            ("HTTP/1.1 200 OK\r\nConnection: close", false),
            ("HTTP/1.1 200 OK\r\nConnection: Keep-Alive, CLOSE", false),
            ("HTTP/1.1 200 OK\r\nConnection: upgrade\r\nConnection: close", false),
            ("HTTP/1.0 200 OK", false),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alive", true),
            ("HTTP/1.1 200 OK", true),
        ]
        for (head, reusable) in cases {
            let (outcome, reused) = try reused(after: "\(head)\r\nContent-Length: 2\r\n\r\nok")
            XCTAssertEqual(try outcome.get().body, Array("ok".utf8), head)
            XCTAssertEqual(reused, reusable, head)
        }
    }

    // MARK: Responses without a body (RFC 9110 §6.4.1, §15.2)

    /// HEAD, 204 and 304 end with their head whatever length they announce, and interim 1xx
    /// responses before the final one are skipped: the connection serves the next request.
    func testResponsesWithoutABodyLeaveTheConnectionReusable() throws {
        let cases: [(method: String, answer: String)] = [
            ("HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"),
            ("HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nContent-Encoding: gzip\r\n\r\n"),
            ("GET", "HTTP/1.1 204 No Content\r\n\r\n"),
            ("GET", "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\nContent-Encoding: gzip\r\n\r\n"),
            ("GET", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\n\r\n"),
        ]
        for (method, answer) in cases {
            let (outcome, reused) = try reused(after: answer, method: method)
            let response = try outcome.get()
            XCTAssertTrue(response.body.isEmpty, "\(method) \(answer.debugDescription)")
            XCTAssertNil(response.head.headers["Link"], "an interim response's fields")
            XCTAssertTrue(reused, "\(method) \(answer.debugDescription): not reused")
        }
    }

    // MARK: Bytes past the response

    /// Bytes after a complete response, in the same read, close the connection: they are not
    /// taken as the answer to the next request.
    func testBytesAfterTheResponseCloseTheConnection() throws {
        let extra = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nWRONG"
        let (outcome, reused) = try reused(after: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" + extra)
        XCTAssertEqual(try outcome.get().body, Array("hello".utf8))
        XCTAssertFalse(reused)
    }

    /// Bytes after a complete response that arrive later, once the connection is pooled, close it
    /// too: the next request goes on a new connection and gets its own answer.
    func testBytesArrivingAfterThePooledResponseCloseTheConnection() throws {
        let listener = try ThreadedListener(lifetime: .seconds(30))
        keep(listener)
        let log = Recorder<Received>()
        // Signalled once the client has pooled the connection: the stray bytes come after that.
        let pooled = DispatchSemaphore(value: 0)
        listener.start { client, number in
            var parser = HTTPRequestParser()
            var answered = 0
            let deadline = ContinuousClock.now + .seconds(5)
            while !listener.isStopped, ContinuousClock.now < deadline {
                guard let request = try? parser.nextRequest() else {
                    guard let bytes = try? client.read(timeout: .milliseconds(50)) else { continue }
                    if bytes.isEmpty { return }
                    parser.feed(bytes)
                    continue
                }
                answered += 1
                log.append(Received(connection: number, target: request.head.target))
                if request.head.target == "/second" {
                    _ = try? client.write(Self.second, timeout: .seconds(5))
                    continue
                }
                _ = try? client.write(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".utf8), timeout: .seconds(5))
                _ = pooled.wait(timeout: .now() + 5)
                _ = try? client.write(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nWRONG".utf8), timeout: .seconds(5))
            }
        }
        let base = "http://127.0.0.1:\(listener.port)"
        let first = try execute(HTTPClientRequest(url: try XCTUnwrap(URL(string: base + "/first"))))
        XCTAssertEqual(try first.get().body, Array("hello".utf8))
        XCTAssertTrue(waitUntil { self.client.idleConnectionCount == 1 }, "the connection is pooled")
        pooled.signal()
        XCTAssertTrue(waitUntil { self.client.idleConnectionCount == 0 }, "the stray bytes closed the pooled connection")
        let next = try execute(HTTPClientRequest(url: try XCTUnwrap(URL(string: base + "/second"))))
        XCTAssertEqual(try next.get().body, Array("second".utf8))
        XCTAssertEqual(log.values.map(\.connection), [1, 2])
    }

    // MARK: Content-Encoding (RFC 9110 §8.4)

    /// `body` as one stored DEFLATE block (RFC 1951 §3.2.4).
    private static func storedDeflate(_ body: [UInt8]) -> [UInt8] {
        let length = UInt16(body.count)
        return [0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + body
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// `body` as a gzip member (RFC 1952) holding one stored block.
    private static func gzip(_ body: [UInt8]) -> [UInt8] {
        [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + storedDeflate(body) + littleEndian(crc32(body)) + littleEndian(UInt32(body.count))
    }

    /// `body` in zlib's format (RFC 1950) holding one stored block.
    private static func zlib(_ body: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in body {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        return [0x78, 0x01] + storedDeflate(body) + littleEndian(adler).reversed()
    }

    /// The body `execute` hands on for `encoded` sent with `Content-Encoding: coding`.
    private func delivered(_ encoded: [UInt8], coding: String) throws -> Result<HTTPClientResponse, HTTPClientError> {
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Encoding: \(coding)\r\nContent-Length: \(encoded.count)\r\n\r\n".utf8) + encoded
        let server = try ScriptedHTTPServer { _, _, _ in .respond(answer) }
        keep(server)
        return try execute(HTTPClientRequest(url: server.url("/coded")))
    }

    /// gzip, deflate (zlib-wrapped and raw), x-gzip, upper-case names, `identity` among them and
    /// stacked codings (undone last first) are decoded; an unknown coding anywhere leaves the body
    /// as received, with its field.
    func testContentCodingsAreUndoneInReverseOrder() throws {
        let plain = Array("hello, coded world".utf8)
        let cases: [(encoded: [UInt8], coding: String, expected: [UInt8])] = [
            (Self.gzip(plain), "gzip", plain),
            (Self.gzip(plain), "GZIP", plain),
            (Self.gzip(plain), "x-gzip", plain),
            (Self.zlib(plain), "deflate", plain),
            (Self.storedDeflate(plain), "deflate", plain),
            (Self.gzip(Self.gzip(plain)), "gzip, gzip", plain),
            (Self.gzip(Self.zlib(plain)), "deflate, gzip", plain),
            (Self.gzip(plain), "identity, gzip", plain),
            (plain, "identity", plain),
            (plain, "br", plain),
            (Self.gzip(plain), "gzip, br", Self.gzip(plain)),
        ]
        for (encoded, coding, expected) in cases {
            let response = try delivered(encoded, coding: coding).get()
            XCTAssertEqual(response.body, expected, coding)
            XCTAssertEqual(response.head.headers["Content-Encoding"], coding, "the field is kept as received")
        }
        guard case .failure(.badResponse(.invalidContentCoding)) = try delivered(Array("not gzip".utf8), coding: "gzip") else {
            return XCTFail("a malformed gzip body was not refused")
        }
    }
}
