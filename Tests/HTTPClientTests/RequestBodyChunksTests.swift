import FeedServer
import Foundation
import HTTPClient
import Synchronization
import TestSupport
import XCTest

/// Request bodies from an `AsyncSequence` (`Body.chunks`): chunked or under a length, checked
/// against it, read once (a 307 needing it again fails typed), and read only as fast as the
/// socket takes it (a server that reads nothing stalls the producer).
final class RequestBodyChunksTests: HTTPClientTestCase {
    private func echoed(_ response: HTTPClientResponse) throws -> (body: Data, headers: [String: String], method: String) {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let body = try XCTUnwrap((object["body"] as? String).flatMap { Data(base64Encoded: $0) })
        return (body, try XCTUnwrap(object["headers"] as? [String: String]), try XCTUnwrap(object["method"] as? String))
    }

    private static func stream(_ chunks: [[UInt8]]) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }

    private let parts: [[UInt8]] = [Array("hello, ".utf8), [], Array("chunked ".utf8), Array("world".utf8)]

    func testWithoutALengthTheChunksGoOutChunked() throws {
        let request = HTTPClientRequest(url: url("echo"), method: "POST", body: .chunks(Self.stream(parts)))
        let (body, headers, method) = try echoed(try executeWithCompletion(request).get())
        XCTAssertEqual(method, "POST")
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "hello, chunked world")
        XCTAssertEqual(headers["Transfer-Encoding"], "chunked")
        XCTAssertNil(headers["Content-Length"])
    }

    func testWithALengthTheyGoOutUnderContentLength() throws {
        let request = HTTPClientRequest(url: url("echo"), method: "PUT", body: .chunks(Self.stream(parts), length: 20))
        let (body, headers, _) = try echoed(try executeWithCompletion(request).get())
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "hello, chunked world")
        XCTAssertEqual(headers["Content-Length"], "20")
        XCTAssertNil(headers["Transfer-Encoding"])
    }

    func testMoreBytesThanTheLengthFailTheUpload() throws {
        let result = try executeWithCompletion(HTTPClientRequest(url: url("echo"), method: "POST", body: .chunks(Self.stream(parts), length: 10)))
        guard case .failure(.uploadFailed(let underlying)) = result else { return XCTFail("expected .uploadFailed, got \(result)") }
        let mismatch = try XCTUnwrap(underlying as? BodyLengthMismatch, "\(underlying)")
        XCTAssertEqual(mismatch.declared, 10)
        XCTAssertEqual(mismatch.counted, 15, "counted to the chunk that passed the length")
    }

    /// A `Body.stream` is held to its declared length as a sequence is: a shorter one fails at
    /// its end instead of leaving the server waiting for the rest until the idle timeout, and a
    /// longer one fails instead of writing bytes past the body the server reads as a request.
    func testAStreamOfAnotherLengthThanDeclaredFailsTheUpload() throws {
        let bytes = Data("0123456789".utf8)
        for (declared, counted) in [(Int64(20), Int64(10)), (Int64(4), Int64(10))] {
            let request = HTTPClientRequest(url: url("echo"), method: "POST", body: .stream({ InputStream(data: bytes) }, length: declared),
                                            idleTimeout: .seconds(5))
            let result = try executeWithCompletion(request)
            guard case .failure(.uploadFailed(let underlying)) = result else { return XCTFail("declared \(declared): expected .uploadFailed, got \(result)") }
            let mismatch = try XCTUnwrap(underlying as? BodyLengthMismatch, "\(underlying)")
            XCTAssertEqual([mismatch.declared, mismatch.counted], [declared, counted])
        }
    }

    func testA307NeedingTheBodyAgainIsNotReplayableWhileA303Follows() throws {
        let request = HTTPClientRequest(url: url("redirect/307/1"), method: "POST", body: .chunks(Self.stream(parts)))
        XCTAssertFalse(try XCTUnwrap(request.body).isReplayable)
        let result = try executeWithCompletion(request)
        guard case .failure(.bodyNotReplayable) = result else { return XCTFail("expected .bodyNotReplayable, got \(result)") }
        XCTAssertEqual(server.requestCount(path: "/echo"), 0, "the redirect was not sent")
        let seeOther = HTTPClientRequest(url: url("redirect/303/1"), method: "POST", body: .chunks(Self.stream(parts)))
        let (body, _, method) = try echoed(try executeWithCompletion(seeOther).get())
        XCTAssertEqual(method, "GET", "a 303 goes on without the body")
        XCTAssertTrue(body.isEmpty)
        XCTAssertTrue(HTTPClientRequest.Body.bytes(Data()).isReplayable)
    }

    /// A server that accepts and never reads: the producer is asked for chunks only while the
    /// socket takes them, so it stalls once the kernel's buffers are full, far short of the body.
    func testAServerThatReadsNothingStallsTheProducer() throws {
        let listener = try ThreadedListener(lifetime: .seconds(30))
        defer { listener.stop() }
        listener.start { [listener] _, _ in listener.waitUntilStopped() }
        let chunk = [UInt8](repeating: 7, count: 65_536)
        let produced = Atomic<Int>(0)
        let total = 1_600  // 100 MiB
        let chunks = AsyncStream<[UInt8]>(unfolding: {
            guard produced.add(1, ordering: .relaxed).newValue <= total else { return nil }
            return chunk
        })
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(listener.port)/upload"))
        let answered = Recorder<String>()
        let task = client.execute(HTTPClientRequest(url: url, method: "POST", body: .chunks(chunks))) { answered.append("\($0)") }
        defer { task.cancel() }
        XCTAssertTrue(waitUntil(timeout: 20) { produced.load(ordering: .relaxed) > 16 }, "the upload started")
        var last = -1
        var stalled = false
        for _ in 0..<40 where !stalled {
            Thread.sleep(forTimeInterval: 0.25)
            let now = produced.load(ordering: .relaxed)
            stalled = now == last
            last = now
        }
        XCTAssertTrue(stalled, "the producer stopped being asked (\(last) chunks)")
        XCTAssertLessThan(last * chunk.count, 32 << 20, "at most the kernel's buffers and a chunk ahead: \(last) chunks of 64 KiB")
        XCTAssertEqual(answered.values, [], "no answer came from a server that reads nothing")
    }
}
