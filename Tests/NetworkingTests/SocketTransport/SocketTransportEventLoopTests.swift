import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import EventLoopIO
import HTTPClient
@testable import Networking
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

    /// A transport on a loop of the test's own (so that blocking it blocks neither the server
    /// nor other transports), with one connection pooled; returns a closure that blocks the loop
    /// until the closure it returns is called.
    private func transportOnItsOwnLoop(_ configuration: SocketTransport.Configuration = .init(idleTimeout: .seconds(10))) throws
        -> () -> @Sendable () -> Void {
        let group = try EventLoopGroup(count: 1, label: "SocketTransportEventLoopTests")
        transport = SocketTransport(client: HTTPClient(configuration: configuration, loops: group))
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertEqual(transport.idleConnectionCount, 1)
        return { self.block(group.loops) }
    }

    /// Nothing of a request happens on the caller's thread: with its loop blocked, a request on
    /// an idle pooled connection does not reach the server; it goes once the loop runs.
    func testARequestOnAnIdlePooledConnectionWaitsForItsLoop() throws {
        let blockTheLoop = try transportOnItsOwnLoop()
        let unblock = blockTheLoop()
        let outcome = Outcome()
        _ = transport.send(request("echo?waited=1"), progress: nil, completion: outcome.record)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(server.requestCount(path: "/echo"), 1, "the request left the caller's thread unsent")
        XCTAssertEqual(outcome.count, 0)
        unblock()
        XCTAssertEqual(outcome.done.wait(timeout: .now() + 20), .success)
        let echo = try XCTUnwrap(outcome.first?.get())
        XCTAssertEqual(echo.statusCode, 200)
        XCTAssertTrue(String(decoding: echo.data, as: UTF8.self).contains("waited=1"), "the answer to that request")
        XCTAssertEqual(server.connectionCount, 1, "on the pooled connection")
        XCTAssertTrue(waitUntil(timeout: 20) { self.transport.idleConnectionCount == 1 }, "the connection went back to the pool")
    }

    /// A request cancelled before its loop ran it reports nothing, sends nothing and leaves the
    /// pooled connection in the pool.
    func testARequestCancelledBeforeItsLoopRunsSendsNothing() throws {
        let blockTheLoop = try transportOnItsOwnLoop()
        let unblock = blockTheLoop()
        let outcome = Outcome()
        let handle = transport.send(request("echo"), progress: nil, completion: outcome.record)
        handle.cancel()
        XCTAssertTrue(handle.isCancelled)
        unblock()
        XCTAssertEqual(try get("echo").get().statusCode, 200, "the transport is still usable")
        XCTAssertEqual(server.requestCount(path: "/echo"), 2, "the cancelled request was never sent")
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(outcome.count, 0, "nothing is reported after cancel")
    }

    /// An unanswered request on a pooled connection times out after the idle timeout.
    func testAnUnansweredRequestOnAPooledConnectionTimesOut() throws {
        let (kind, waited) = try failureOfAnUnansweredRequest(.init(idleTimeout: .milliseconds(1_500)))
        XCTAssertEqual(kind, .timedOut(.idle, after: .milliseconds(1_500), endpoint: "127.0.0.1:\(server.port)"))
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(1_400))
        XCTAssertEqual(transport.idleConnectionCount, 0, "the connection that timed out is not pooled")
    }

    /// The overall deadline of a request on a pooled connection counts from `send`.
    func testAnUnansweredRequestOnAPooledConnectionKeepsItsOverallDeadline() throws {
        let (kind, waited) = try failureOfAnUnansweredRequest(.init(idleTimeout: .seconds(30), overallDeadline: .milliseconds(1_500)))
        XCTAssertEqual(kind, .timedOut(.overall, after: .milliseconds(1_500), endpoint: "127.0.0.1:\(server.port)"))
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(1_400))
        XCTAssertLessThan(waited, .seconds(10))
    }

    /// Pools a connection with one request, then sends one the server never answers on that
    /// connection; returns its failure and how long it took.
    private func failureOfAnUnansweredRequest(_ configuration: SocketTransport.Configuration) throws -> (TransportError, Duration) {
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
}
