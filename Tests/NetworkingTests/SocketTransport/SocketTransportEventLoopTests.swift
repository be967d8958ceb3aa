import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
import Networking
import Synchronization
import TestSupport
import XCTest

/// The event loop underneath `SocketTransport`: many requests in flight or waiting for a
/// connection hold no thread each, and cancelling from many threads reports nothing.
final class SocketTransportEventLoopTests: SocketTransportTestCase {
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
        Thread.sleep(forTimeInterval: 0.2)
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
        Thread.sleep(forTimeInterval: 0.6)
        XCTAssertEqual(outcomes.reduce(0) { $0 + $1.count }, 0)
        XCTAssertEqual(try get("echo").get().statusCode, 200)
    }
}
