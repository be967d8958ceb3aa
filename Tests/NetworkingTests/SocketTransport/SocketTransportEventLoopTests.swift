import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import EventLoopIO
import Networking
import Synchronization
import TestSupport
import XCTest

/// The event loop underneath `SocketTransport`: many requests in flight or waiting for a
/// connection hold no thread each, and cancelling from many threads reports nothing.
final class SocketTransportEventLoopTests: SocketTransportTestCase {
    /// A loop for the server alone: these tests block the shared loops the client runs on, and
    /// the server goes on answering meanwhile.
    private static let serverLoops = try? EventLoopGroup(count: 1, label: "TestServer")

    override var serverConfiguration: FeedServer.Configuration {
        FeedServer.Configuration(eventLoopGroup: Self.serverLoops)
    }

    /// The process's thread count, from `/proc/self/status` (nil elsewhere).
    private func threadCount() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }) else { return nil }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
    }

    func testTwoHundredRequestsWaitingForOneConnectionHoldNoThreads() throws {
        guard let before = threadCount() else { throw XCTSkip("no /proc/self/status on this system") }
        transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(10)))
        let outcomes = (0..<200).map { _ in Outcome() }
        let handles = outcomes.map { outcome in
            transport.send(request("delay/2000"), progress: nil, completion: outcome.record)
        }
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/delay/2000") == 1 },
                      "the first request reached the server")
        let during = try XCTUnwrap(threadCount())
        XCTAssertLessThan(during - before, 20, "200 requests in flight added \(during - before) threads")
        handles.forEach { $0.cancel() }
        // The later request gets the only connection after each cancelled one ahead of it has
        // let its turn go on its loop, and the drain follows whatever those loops did then.
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        drainSharedLoops()
        XCTAssertEqual(outcomes.reduce(0) { $0 + $1.count }, 0, "nothing is reported after cancel")
    }

    func testCancellingFromManyThreadsAtOnceReportsNothingAndLeavesTheTransportUsable() throws {
        let outcomes = (0..<64).map { _ in Outcome() }
        let handles = outcomes.map { outcome in
            transport.send(request("delay/300"), progress: nil, completion: outcome.record)
        }
        DispatchQueue.concurrentPerform(iterations: handles.count) { index in
            handles[index].cancel()
            handles[(index * 7) % handles.count].cancel()
        }
        XCTAssertTrue(handles.allSatisfy(\.isCancelled))
        // The later request waits in the pool behind the cancelled ones still queued, and the
        // server answers it 300 ms after it arrived, so after it answered any that reached it;
        // the drain then follows what the loops did until then.
        XCTAssertEqual(try get("delay/300").get().statusCode, 200)
        drainSharedLoops()
        XCTAssertEqual(outcomes.reduce(0) { $0 + $1.count }, 0)
    }

    /// Asks the server for `/status/204` on a connection of its own, without the event loops,
    /// and waits (bounded) for the answer's status line.
    private func probeTheServer() throws {
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: server.port, timeout: .seconds(5))
        defer { socket.close() }
        try socket.write(Array("GET /status/204 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8), timeout: .seconds(5))
        var answer: [UInt8] = []
        while answer.count < 12 {
            let bytes = try socket.read(maxBytes: 12 - answer.count, timeout: .seconds(20))
            if bytes.isEmpty { break }
            answer += bytes
        }
        XCTAssertEqual(String(decoding: answer, as: UTF8.self), "HTTP/1.1 204", "the server answered the probe")
    }

    /// Blocks every shared loop thread until the returned closure is called.
    private func blockTheLoops() throws -> @Sendable () -> Void {
        block(try XCTUnwrap(EventLoopGroup.shared).loops)
    }

    /// A request without a body on an idle pooled connection is written by the caller's thread:
    /// it reaches the server while every loop thread is busy, and the loop reads the answer later.
    func testARequestOnAnIdlePooledConnectionIsWrittenBeforeTheLoopRuns() throws {
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertEqual(transport.idleConnectionCount, 1)
        let unblock = try blockTheLoops()
        let outcome = Outcome()
        _ = transport.send(request("echo?early=1"), progress: nil, completion: outcome.record)
        let arrived = waitUntil(timeout: 20) { self.server.requestCount(path: "/echo") == 2 }
        XCTAssertEqual(outcome.count, 0, "nothing is reported while the loops are blocked")
        unblock()
        XCTAssertTrue(arrived, "the request reached the server while the loops were blocked")
        XCTAssertEqual(outcome.done.wait(timeout: .now() + 20), .success)
        let echo = try XCTUnwrap(outcome.first?.get())
        XCTAssertEqual(echo.statusCode, 200)
        XCTAssertTrue(String(decoding: echo.data, as: UTF8.self).contains("early=1"), "the answer to that request")
        XCTAssertTrue(waitUntil(timeout: 20) { self.transport.idleConnectionCount == 1 }, "the connection went back to the pool")
    }

    /// Cancelling a request the caller's thread already wrote reports nothing, and its connection
    /// (with an answer on the way) is closed rather than pooled.
    func testCancellingARequestWrittenEarlyReportsNothingAndPoolsNothing() throws {
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        let unblock = try blockTheLoops()
        let outcome = Outcome()
        let handle = transport.send(request("echo"), progress: nil, completion: outcome.record)
        let arrived = waitUntil(timeout: 20) { self.server.requestCount(path: "/echo") == 2 }
        handle.cancel()
        unblock()
        XCTAssertTrue(arrived, "the request reached the server while the loops were blocked")
        XCTAssertTrue(handle.isCancelled)
        // cancel() queued the teardown before the drain.
        drainSharedLoops()
        XCTAssertEqual(transport.idleConnectionCount, 0, "the cancelled connection was closed, not pooled")
        // The server answered the cancelled request before the later one was sent (on a new
        // connection), and the drain follows what the loops did with both answers.
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        drainSharedLoops()
        XCTAssertEqual(outcome.count, 0, "nothing is reported after cancel")
    }

    /// A request written early is watched through its connection's parked registration, and the
    /// loop arms its timers only when it next wakes. With an idle timeout longer than the loops'
    /// longest sleep (1 s) no wake-up is asked for, and the timeout must still fire.
    func testARequestWrittenEarlyTimesOutWhenNoAnswerComes() throws {
        let (kind, waited) = try failureOfAnUnansweredEarlyRequest(.init(idleTimeout: .milliseconds(1_500)))
        XCTAssertEqual(kind, .timedOut(.idle, after: .milliseconds(1_500), endpoint: "127.0.0.1:\(server.port)"))
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(1_400))
        XCTAssertEqual(transport.idleConnectionCount, 0, "the connection that timed out is not pooled")
    }

    /// The overall deadline of a request written early counts from `send`, though the loop arms
    /// it later.
    func testARequestWrittenEarlyKeepsItsOverallDeadline() throws {
        let (kind, waited) = try failureOfAnUnansweredEarlyRequest(.init(idleTimeout: .seconds(30), overallDeadline: .milliseconds(1_500)))
        XCTAssertEqual(kind, .timedOut(.overall, after: .milliseconds(1_500), endpoint: "127.0.0.1:\(server.port)"))
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(1_400))
        XCTAssertLessThan(waited, .seconds(10))
    }

    /// Pools a connection with one request, then sends one the server never answers (written
    /// early on that connection); returns its failure and how long it took.
    private func failureOfAnUnansweredEarlyRequest(_ configuration: SocketTransport.Configuration) throws -> (TransportError, Duration) {
        transport = SocketTransport(configuration: configuration)
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertEqual(transport.idleConnectionCount, 1)
        let started = ContinuousClock.now
        let error = try failure(get("hang"))
        let waited = ContinuousClock.now - started
        guard case .underlying(let root, _) = error, let kind = root as? TransportError else {
            XCTFail("not a TransportError: \(error)")
            throw TestError(1)
        }
        return (kind, waited)
    }

    /// With another request to the host in flight the loop writes the request (it is awake and
    /// takes requests in batches), so nothing reaches the server while the loops are blocked.
    func testWithAnotherRequestInFlightTheLoopWritesTheRequest() throws {
        let warm = (0..<2).map { _ in Outcome() }
        for outcome in warm { _ = transport.send(request("delay/200"), progress: nil, completion: outcome.record) }
        for outcome in warm { XCTAssertEqual(outcome.done.wait(timeout: .now() + 20), .success) }
        XCTAssertEqual(transport.idleConnectionCount, 2)
        let slow = transport.send(request("delay/5000"), progress: nil) { _ in }
        defer { slow.cancel() }
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/delay/5000") == 1 })
        let unblock = try blockTheLoops()
        let outcome = Outcome()
        _ = transport.send(request("echo"), progress: nil, completion: outcome.record)
        // Written by this thread, the request would be in its connection before the probe's is
        // opened, and the server (on a loop of its own) reads each connection as bytes come: it
        // would count that request before it answers the probe.
        try probeTheServer()
        let arrivedWhileBlocked = server.requestCount(path: "/echo")
        unblock()
        XCTAssertEqual(arrivedWhileBlocked, 0, "the loop, not the caller, wrote the request")
        XCTAssertEqual(outcome.done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(try outcome.first?.get().statusCode, 200)
    }
}
