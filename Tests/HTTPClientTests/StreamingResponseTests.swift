import FeedServer
import Foundation
import HTTPClient
import HTTPWire
import EventLoopIO
import Synchronization
import TestSupport
import XCTest

/// `HTTPClient.stream(_:)` against real servers on 127.0.0.1: the answer at the head, the body
/// in chunks, `collect(upTo:)`, an early end or a cancelled consumer closing the connection, a
/// failure after the head, and backpressure (a slow consumer stalls the server's writes).
final class StreamingResponseTests: HTTPClientTestCase {
    func testTheBodyArrivesInChunksAndTheConnectionIsPooledAfter() throws {
        let client = self.client!
        let request = HTTPClientRequest(url: url("bytes/3000000"))
        let (status, chunks, bytes) = try run { () async throws -> (Int, Int, [UInt8]) in
            let response = try await client.stream(request)
            var chunks = 0
            var bytes: [UInt8] = []
            for try await chunk in response.body {
                chunks += 1
                bytes += chunk
            }
            return (response.status, chunks, bytes)
        }
        XCTAssertEqual(status, 200)
        XCTAssertEqual(bytes.count, 3_000_000)
        XCTAssertTrue(BulkBytes.equal(bytes, BulkBytes.counting(3_000_000)), "every byte in order")
        XCTAssertGreaterThan(chunks, 1, "it came in pieces")
        XCTAssertTrue(waitUntil(timeout: 10) { client.idleConnectionCount == 1 }, "the connection went back to the pool")
    }

    func testItAnswersAtTheHeadBeforeTheBody() throws {
        let client = self.client!
        let request = HTTPClientRequest(url: url("drip?interval=100&count=15"))
        let (headAfter, endAfter, body) = try run { () async throws -> (Duration, Duration, [UInt8]) in
            let start = ContinuousClock.now
            let response = try await client.stream(request)
            let headAfter = ContinuousClock.now - start
            let body = try await response.collect(upTo: 1_000)
            return (headAfter, ContinuousClock.now - start, body)
        }
        XCTAssertLessThan(headAfter, .milliseconds(700), "the head came before the 1.5 s body")
        XCTAssertGreaterThan(endAfter, .milliseconds(1_200))
        XCTAssertEqual(body.count, 15)
    }

    func testCollectStopsPastItsLimitAndClosesTheConnection() throws {
        let client = self.client!
        let request = HTTPClientRequest(url: url("bytes/5000000"))
        let result = try run { () async -> Result<[UInt8], HTTPClientError> in
            do throws(HTTPClientError) {
                return .success(try await client.stream(request).collect(upTo: 100_000))
            } catch {
                return .failure(error)
            }
        }
        guard case .failure(.responseTooLarge(100_000)) = result else { return XCTFail("expected .responseTooLarge, got \(result)") }
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "the connection was closed")
        XCTAssertEqual(client.idleConnectionCount, 0)
    }

    func testEndingTheIterationEarlyClosesTheConnection() throws {
        let client = self.client!
        let request = HTTPClientRequest(url: url("bytes/50000000"))
        let first = try run { () async throws -> Int in
            let response = try await client.stream(request)
            for try await chunk in response.body { return chunk.count }
            return 0
        }
        XCTAssertGreaterThan(first, 0)
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "the connection was closed")
        XCTAssertEqual(client.idleConnectionCount, 0)
    }

    /// A server answering each request on a connection with `size` bytes framed by
    /// `Content-Length`, the first 1,000 at once and the rest 200 ms later (after the consumer
    /// has let go), then waiting for the next request on the same connection.
    private func slowTailServer(size: Int) throws -> ThreadedListener {
        let listener = try ThreadedListener(lifetime: .seconds(30))
        listener.start { client, _ in
            while true {
                var head: [UInt8] = []
                while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                    guard let bytes = try? client.read(maxBytes: 1, timeout: .seconds(10)), !bytes.isEmpty else { return }
                    head += bytes
                }
                let body = [UInt8](repeating: 7, count: size)
                guard (try? client.write(Array("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n".utf8) + body.prefix(1_000), timeout: .seconds(5))) != nil else { return }
                Thread.sleep(forTimeInterval: 0.2)
                guard (try? client.write(body.dropFirst(1_000), timeout: .seconds(5))) != nil else { return }
            }
        }
        return listener
    }

    /// The first chunk read, then the iteration ended: with at most 16 KiB left by the head's
    /// length the rest is read and dropped and the connection pooled (the next request reuses
    /// it); with more it is closed.
    func testEndingEarlyWithASmallRemainderDrainsAndPoolsTheConnection() throws {
        let listener = try slowTailServer(size: 1_000 + 15 * 1024)
        defer { listener.stop() }
        let client = self.client!
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(listener.port)/small")))
        let first = try run { () async throws -> Int in
            let response = try await client.stream(request)
            for try await chunk in response.body { return chunk.count }
            return 0
        }
        XCTAssertGreaterThan(first, 0)
        XCTAssertLessThanOrEqual(first, 1_000, "the consumer let go before the rest was sent")
        XCTAssertTrue(waitUntil(timeout: 10) { client.idleConnectionCount == 1 }, "the rest was read and the connection pooled")
        let second = try executeAsync(request).0.get()
        XCTAssertEqual(second.body.count, 1_000 + 15 * 1024)
        XCTAssertEqual(listener.connectionCount, 1, "the second request reused the drained connection")

        let large = try slowTailServer(size: 1_000 + 17 * 1024)
        defer { large.stop() }
        let closing = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(large.port)/large")))
        _ = try run { () async throws -> Int in
            let response = try await client.stream(closing)
            for try await chunk in response.body { return chunk.count }
            return 0
        }
        XCTAssertEqual(try executeAsync(closing).0.get().body.count, 1_000 + 17 * 1024)
        XCTAssertEqual(large.connectionCount, 2, "past 16 KiB left, the first connection was closed")
        // The servers' threads wait for a next request: closing the pooled connections ends them.
        client.closeIdleConnections()
    }

    func testCancellingTheConsumerCancelsTheRequest() throws {
        let client = self.client!
        let request = HTTPClientRequest(url: url("drip?interval=100&count=200"))
        let received = Atomic<Int>(0)
        let outcome = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            do {
                let response = try await client.stream(request)
                for try await chunk in response.body { received.add(chunk.count, ordering: .relaxed) }
                outcome.append("ended")
            } catch let error as HTTPClientError {
                outcome.append("\(error)")
            }
            done.signal()
        }
        XCTAssertTrue(waitUntil(timeout: 10) { received.load(ordering: .relaxed) >= 3 }, "bytes arrived")
        task.cancel()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(outcome.values, ["cancelled"])
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.openConnectionCount == 0 }, "the connection was closed")
    }

    func testAFailureAfterTheHeadIsThrownByTheBody() throws {
        let client = self.client!
        let request = HTTPClientRequest(url: url("half"))
        let (status, error) = try run { () async throws -> (Int, HTTPClientError?) in
            let response = try await client.stream(request)
            do throws(HTTPClientError) {
                _ = try await response.collect(upTo: 10_000)
                return (response.status, nil)
            } catch {
                return (response.status, error)
            }
        }
        XCTAssertEqual(status, 200)
        guard case .connectionLost? = error else { return XCTFail("expected .connectionLost, got \(String(describing: error))") }
    }

    func testRedirectsAreFollowedBeforeTheHeadIsAnswered() throws {
        let client = self.client!
        let request = HTTPClientRequest(url: url("redirect/302/2"))
        let (status, answered) = try run { () async throws -> (Int, URL) in
            let response = try await client.stream(request)
            _ = try await response.collect(upTo: 100_000)
            return (response.status, response.url)
        }
        XCTAssertEqual(status, 200)
        XCTAssertEqual(answered, url("echo"))
    }

    /// How many bytes a server's writes handed to the kernel.
    private final class Taken: Sendable {
        let bytes = Atomic<Int>(0)
    }

    /// A server answering one request with `total` bytes in blocking 64 KiB writes, and what the
    /// kernel took of them so far; with `stopAfter`, it announces `total` but sends only that
    /// many and then waits, silent, for the client to close.
    private func serveBody(of total: Int, stopAfter: Int? = nil) throws -> (ThreadedListener, Taken) {
        let listener = try ThreadedListener(lifetime: .seconds(60))
        let taken = Taken()
        listener.start { client, _ in
            var head: [UInt8] = []
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                guard let bytes = try? client.read(timeout: .seconds(5)), !bytes.isEmpty else { return }
                head += bytes
            }
            let block = [UInt8](repeating: 1, count: 65_536)
            guard (try? client.write(Array("HTTP/1.1 200 OK\r\nContent-Length: \(total)\r\n\r\n".utf8), timeout: .seconds(5))) != nil else { return }
            while taken.bytes.load(ordering: .relaxed) < (stopAfter ?? total) {
                guard (try? client.write(block, timeout: .seconds(30))) != nil else { return }
                taken.bytes.add(block.count, ordering: .relaxed)
            }
            if stopAfter != nil { _ = try? client.read(timeout: .seconds(10)) }
        }
        return (listener, taken)
    }

    /// A server writing 96 MiB in blocking 64 KiB writes, counting what the kernel took: while
    /// the consumer sleeps its writes stall, short of the body by far, and the client holds at
    /// most its buffer limit unread; once the consumer reads again the whole body arrives. (The
    /// kernel's loopback buffers are not small: under load a gVisor sandbox's took 26 MB.)
    func testASlowConsumerStallsTheServersWrites() throws {
        let total = 96 << 20
        let (listener, taken) = try serveBody(of: total)
        defer { listener.stop() }
        let client = self.client!
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(listener.port)/big")))
        let samples = Recorder<Int>()
        let read = try run { () async throws -> Int in
            let response = try await client.stream(request)
            var iterator = response.body.makeAsyncIterator()
            var read = 0
            while read < 1 << 20, let chunk = try await iterator.next() { read += chunk.count }
            // The consumer stops reading for a while: the server's writes must stall.
            try await Task.sleep(for: .milliseconds(800))
            samples.append(taken.bytes.load(ordering: .relaxed))
            try await Task.sleep(for: .milliseconds(800))
            samples.append(taken.bytes.load(ordering: .relaxed))
            while let chunk = try await iterator.next() { read += chunk.count }
            return read
        }
        let stalled = samples.values
        XCTAssertEqual(stalled.count, 2)
        XCTAssertEqual(stalled.first, stalled.last, "no byte was taken from the server while the consumer slept")
        XCTAssertLessThan(stalled.first ?? .max, total / 2, "the kernel's buffers and the client's limit, far short of the body")
        XCTAssertEqual(read, total, "then the whole body arrived")
    }

    /// A consumer that pauses for far longer than the idle timeout keeps its request (the peer is
    /// not idle: we stopped reading, and the connection has no idle deadline meanwhile): the
    /// paused connection costs the process next to no CPU. (A deadline left in the past once
    /// fired in a loop on the loop's thread for the whole pause.)
    func testAPausedStreamWaitsPastTheIdleTimeoutWithoutBurningCPU() throws {
        let total = 32 << 20
        let (listener, _) = try serveBody(of: total)
        defer { listener.stop() }
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .milliseconds(50)))
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(listener.port)/big")))
        let spent = Recorder<Double>()
        let read = try run { () async throws -> Int in
            let response = try await client.stream(request)
            var iterator = response.body.makeAsyncIterator()
            var read = 0
            while read < 1 << 20, let chunk = try await iterator.next() { read += chunk.count }
            // Reading is paused once the client's buffer is full; the consumer sleeps 30 idle timeouts.
            let before = Double(clock()) / Double(CLOCKS_PER_SEC)
            try await Task.sleep(for: .milliseconds(1_500))
            spent.append(Double(clock()) / Double(CLOCKS_PER_SEC) - before)
            while let chunk = try await iterator.next() { read += chunk.count }
            return read
        }
        XCTAssertEqual(read, total, "the paused request was not timed out, and the whole body arrived")
        let cpu = try XCTUnwrap(spent.values.first)
        XCTAssertLessThan(cpu, 0.25, "the process spent \(cpu) s of CPU while the stream was paused for 1.5 s")
    }

    /// The reads resumed after a pause past the idle timeout: the idle deadline runs again from
    /// then, and a server that goes silent mid-body times the stream out as idle.
    func testAStreamResumedAfterAPauseTimesOutWhenTheServerGoesSilent() throws {
        let total = 32 << 20
        // Past what the kernel and the client's buffer hold, so the reads pause while the server still writes.
        let sent = 28 << 20
        let (listener, _) = try serveBody(of: total, stopAfter: sent)
        defer { listener.stop() }
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .milliseconds(200)))
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(listener.port)/big")))
        let outcome = try run { () async throws -> (Int, Result<Void, HTTPClientError>) in
            let response = try await client.stream(request)
            var iterator = response.body.makeAsyncIterator()
            var read = 0
            while read < 1 << 20, let chunk = try await iterator.next() { read += chunk.count }
            // Reading pauses once the client's buffer is full; the consumer sleeps 5 idle timeouts.
            try await Task.sleep(for: .milliseconds(1_000))
            do {
                while let chunk = try await iterator.next() { read += chunk.count }
                return (read, .success(()))
            } catch let error as HTTPClientError {
                return (read, .failure(error))
            }
        }
        XCTAssertEqual(outcome.0, sent, "every byte sent arrived, the pause timed nothing out")
        guard case .failure(.timedOut(let deadline, let after, _, _)) = outcome.1 else {
            return XCTFail("expected an idle timeout, got \(outcome.1)")
        }
        XCTAssertEqual(deadline, .idle)
        XCTAssertEqual(after, .milliseconds(200))
    }
}

extension HTTPClientTestCase {
    /// Runs `work` on a task and waits for it, bounded.
    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Recorder<Result<T, any Error>>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { outcome.append(.success(try await work())) } catch { outcome.append(.failure(error)) }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success, "the task finished")
        return try XCTUnwrap(outcome.values.first).get()
    }
}
