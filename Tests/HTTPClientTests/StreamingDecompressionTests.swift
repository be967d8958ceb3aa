import FeedServer
import Foundation
@testable import HTTPClient
import HTTPWire
import TestSupport
import XCTest

/// `HTTPClient.stream(_:)` decoding `gzip` and `deflate` bodies as they arrive from real servers
/// (nginx gzipping on the fly, FeedServer's `/bomb/{n}`, a raw socket sending malformed data):
/// chunk by chunk, within the request's decompression limit, or passed through when disabled.
final class StreamingDecompressionTests: HTTPClientTestCase {
    /// The chunks of a streamed body, or the error that ended it with the bytes read before.
    private func chunks(_ request: HTTPClientRequest, on client: HTTPClient? = nil)
        throws -> (head: HTTPResponseHead, chunks: [[UInt8]], error: HTTPClientError?) {
        let client = client ?? self.client!
        return try run { () async throws -> (HTTPResponseHead, [[UInt8]], HTTPClientError?) in
            let response = try await client.stream(request)
            var chunks: [[UInt8]] = []
            do throws(HTTPClientError) {
                for try await chunk in response.body { chunks.append(chunk) }
            } catch {
                return (response.head, chunks, error)
            }
            return (response.head, chunks, nil)
        }
    }

    func testNginxsGzipIsDecodedChunkByChunk() throws {
        guard let nginx = try StockTLSServer.nginx(certificate: TLSFixtures.path("localhost.pem"), key: TLSFixtures.path("localhost.key")) else {
            throw XCTSkip("nginx is not installed (CI installs it)")
        }
        defer { nginx.stop() }
        try TLSFixtures.skipUnlessTLSLoads()
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client))
        let url = try XCTUnwrap(URL(string: "https://localhost:\(nginx.port)/text/words.txt"))
        let (head, chunks, error) = try self.chunks(HTTPClientRequest(url: url), on: client)
        XCTAssertNil(error)
        XCTAssertEqual(head.headers["Content-Encoding"], "gzip", "nginx compressed it")
        XCTAssertNil(head.headers["Content-Length"], "on the fly, so chunked")
        XCTAssertTrue(BulkBytes.equal(BulkBytes.joined(chunks), StockTLSServer.nginxText), "the text, whole and in order")
        XCTAssertGreaterThan(chunks.count, 10, "it came decoded in pieces")
        XCTAssertLessThanOrEqual(chunks.map(\.count).max() ?? 0, 64 * 1024 + 258, "each piece one bounded step")
        // The same through `execute`: one inflater serves both.
        let whole = try executeAsync(HTTPClientRequest(url: url), on: client).0.get()
        XCTAssertEqual(whole.body, StockTLSServer.nginxText)
    }

    func testFeedServersDeflateIsDecodedWithinARatioItKeeps() throws {
        let request = HTTPClientRequest(url: url("bomb/4194304?coding=deflate"), decompression: .enabled(limit: .ratio(200)))
        let (head, chunks, error) = try self.chunks(request)
        XCTAssertNil(error)
        XCTAssertEqual(head.headers["Content-Encoding"], "deflate")
        XCTAssertEqual(chunks.reduce(0) { $0 + $1.count }, 4 << 20)
        XCTAssertTrue(chunks.allSatisfy { BulkBytes.all(0, in: $0) })
        XCTAssertGreaterThan(chunks.count, 60, "4 MiB in steps of at most 64 KiB")
        XCTAssertTrue(waitUntil(timeout: 10) { self.client.idleConnectionCount == 1 }, "the connection went back to the pool")
    }

    /// A slow consumer of a body that inflates 160 to 1: what waits decoded stays within the
    /// buffer's limit and one step, however much compressed data the socket had (one read's
    /// 64 KiB would be 10 MiB decoded at once); the rest waits compressed, the socket unread.
    func testASlowConsumerOfACompressedBodyHoldsOneBufferDecoded() throws {
        let request = HTTPClientRequest(url: url("bomb/16777216"))
        let client = self.client!
        let (held, read) = try run { () async throws -> ([Int], Int) in
            let response = try await client.stream(request)
            var iterator = response.body.makeAsyncIterator()
            var read = 0
            var held: [Int] = []
            while read < 4 << 20, let chunk = try await iterator.next() {
                read += chunk.count
                if read % (1 << 20) < chunk.count {
                    // The consumer pauses: the exchange has all the time it needs to read and decode.
                    try await Task.sleep(for: .milliseconds(150))
                    held.append(response.body.lifetime.stream.bufferedBytes)
                }
            }
            return (held, read)
        }
        XCTAssertGreaterThanOrEqual(read, 4 << 20)
        XCTAssertGreaterThanOrEqual(held.count, 3)
        for bytes in held {
            XCTAssertLessThanOrEqual(bytes, HTTPClient.streamingBufferLimit + ResponseBodyDecoder.step + 258, "at most one buffer and one step")
        }
        XCTAssertGreaterThan(held.max() ?? 0, HTTPClient.streamingBufferLimit / 2, "the decoder filled the buffer while the consumer paused")
    }

    func testABombFailsTypedMidStreamAtASizeLimit() throws {
        let request = HTTPClientRequest(url: url("bomb/8388608"), decompression: .enabled(limit: .size(1 << 20)))
        let (_, chunks, error) = try self.chunks(request)
        guard case .decompressionLimitExceeded(let limit, let compressed)? = error else {
            return XCTFail("expected .decompressionLimitExceeded, got \(String(describing: error))")
        }
        XCTAssertEqual(limit, 1 << 20)
        XCTAssertGreaterThan(compressed, 0)
        let read = chunks.reduce(0) { $0 + $1.count }
        XCTAssertGreaterThan(read, 0, "bytes came before the failure")
        XCTAssertLessThanOrEqual(read, 1 << 20)
    }

    func testABombFailsTypedAtARatioToTheBytesSoFar() throws {
        let request = HTTPClientRequest(url: url("bomb/8388608?coding=deflate"), decompression: .enabled(limit: .ratio(100)))
        let (_, _, error) = try self.chunks(request)
        guard case .decompressionLimitExceeded(let limit, let compressed)? = error else {
            return XCTFail("expected .decompressionLimitExceeded, got \(String(describing: error))")
        }
        XCTAssertEqual(limit, compressed * 100, "the bound is the ratio to what had arrived")
        XCTAssertGreaterThan(compressed, 0)
    }

    func testDisabledPassesTheCompressedBytesThrough() throws {
        let (head, chunks, error) = try self.chunks(HTTPClientRequest(url: url("bomb/1048576"), decompression: .disabled))
        XCTAssertNil(error)
        let body = Array(chunks.joined())
        XCTAssertEqual(head.headers["Content-Length"], String(body.count))
        XCTAssertEqual(Array(body.prefix(3)), [0x1F, 0x8B, 8], "the gzip member itself")
        XCTAssertEqual(try Inflater.decode(body, coding: .gzip, limit: 1 << 20).count, 1 << 20)
        // And nothing asks for compression.
        let echoed = try self.chunks(HTTPClientRequest(url: url("echo"), decompression: .disabled)).chunks
        XCTAssertFalse(String(decoding: Array(echoed.joined()), as: UTF8.self).lowercased().contains("accept-encoding"))
        let asked = try self.chunks(HTTPClientRequest(url: url("echo"))).chunks
        XCTAssertTrue(String(decoding: Array(asked.joined()), as: UTF8.self).contains("gzip, deflate"), "enabled asks for it")
    }

    /// A server on a raw socket sending `body` labelled `coding`, framed by `Content-Length`.
    private func serve(_ body: [UInt8], coding: String) throws -> ThreadedListener {
        let listener = try ThreadedListener(lifetime: .seconds(30))
        listener.start { client, _ in
            var head: [UInt8] = []
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                guard let bytes = try? client.read(timeout: .seconds(5)), !bytes.isEmpty else { return }
                head += bytes
            }
            let response = Array("HTTP/1.1 200 OK\r\nContent-Encoding: \(coding)\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            _ = try? client.write(response, timeout: .seconds(5))
        }
        return listener
    }

    /// Fuzz-style, over a real socket: zlib's output of a varied text (the inflater tests'
    /// fixture) with a bit flipped, cut short, or replaced by noise fails with `.badResponse`,
    /// typed, and nothing crashes.
    func testMalformedDeflateFailsTypedMidStream() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HTTPWireTests/Fixtures/compression/plain.zlib-6.deflate")
        let valid = [UInt8](try Data(contentsOf: fixture))
        var state: UInt64 = 46
        func random() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        var bodies: [(String, [UInt8])] = [("cut", Array(valid.dropLast(5))), ("noise", (0..<3_000).map { _ in UInt8(truncatingIfNeeded: random()) })]
        for round in 0..<6 {
            var flipped = valid
            flipped[2 + random() % (flipped.count - 2)] ^= UInt8(1 << (random() % 8))
            bodies.append(("flipped \(round)", flipped))
        }
        for (name, body) in bodies {
            let listener = try serve(body, coding: "deflate")
            defer { listener.stop() }
            let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(listener.port)/"))
            let (_, chunks, error) = try self.chunks(HTTPClientRequest(url: url))
            guard let error else {
                // A flipped bit decodes to other text, whose Adler-32 cannot match.
                return XCTFail("\(name): decoded \(chunks.reduce(0) { $0 + $1.count }) bytes without an error")
            }
            guard case .badResponse = error else { return XCTFail("\(name): expected .badResponse, got \(error)") }
        }
    }
}
