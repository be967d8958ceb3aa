import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import EventLoopIO
import Locking
@testable import Networking
import TestSupport
import XCTest

/// Requests that wait in the pool for a connection: each stays on the loop it started on, the
/// connection moves to it, and waiters are served in the order they were sent
/// (`SocketExchangeWaitingTests` has one cancelled as it is handed a connection).
final class SocketTransportWaitingTests: SocketTransportTestCase {
    private var group: EventLoopGroup?

    override func tearDown() {
        super.tearDown()
        group = nil
    }

    /// Two loops of the test's own, so that nothing else runs on them.
    private func ownLoops() throws -> EventLoopGroup {
        let group = try EventLoopGroup(count: 2, label: "SocketTransportWaitingTests")
        self.group = group
        return group
    }

    /// One answer: the request's number, the server's count of requests for its key when it
    /// answered (the order the server received them in; nil for request 0 or a failure), and the
    /// loop that ran the completion.
    private struct Answer: Sendable {
        let request: Int
        let arrival: Int?
        let loop: Int?
    }

    /// Sends requests 1...12 while request 0 holds the only connection; returns every answer.
    private func answersWaitingForOneConnection(on group: EventLoopGroup) throws -> [Answer] {
        transport = SocketTransport(client: HTTPClient(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(10)), loops: group))
        let answers = Lock<[Answer]>([])
        let done = DispatchGroup()
        func send(_ index: Int, _ path: String) {
            done.enter()
            _ = transport.send(request(path), progress: nil) { result in
                let loop = group.loops.firstIndex { $0.inLoop }
                let body = (try? result.get()).flatMap { try? JSONSerialization.jsonObject(with: $0.data) as? [String: Any] }
                answers.withLock { $0.append(Answer(request: index, arrival: body?["attempt"] as? Int, loop: loop)) }
                done.leave()
            }
        }
        send(0, "delay/300")
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/delay/300") == 1 }, "the first request holds the connection")
        // Sent round robin over both loops; all of them wait for the one connection. The flaky
        // route with no failures counts the requests for its key as they arrive.
        for index in 1...12 { send(index, "flaky?failures=0&key=order") }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "every request was answered")
        return answers.withLock { $0 }.sorted { $0.request < $1.request }
    }

    /// Waiters reach the pool from two loops, a little out of order, and are served in the order
    /// they were sent, each on its own loop: the one connection moves between the loops.
    func testWaitingRequestsAreServedInTheOrderSentEachOnItsOwnLoop() throws {
        let group = try ownLoops()
        let all = try answersWaitingForOneConnection(on: group).dropFirst()
        XCTAssertEqual(all.map(\.arrival), Array(1...12).map { Optional($0) }, "the server received them in the order sent")
        let loops = all.map(\.loop)
        XCTAssertFalse(loops.contains(nil))
        XCTAssertEqual(Set(loops).count, 2, "answered on both loops: \(loops)")
        for (earlier, later) in zip(loops, loops.dropFirst()) {
            XCTAssertNotEqual(earlier, later, "requests sent round robin alternate loops, each answered on its own: \(loops)")
        }
        XCTAssertEqual(server.connectionCount, 1, "one connection served them all")
    }

    /// The connection handed to the last waiter is parked on that waiter's loop: its first home
    /// no longer watches it.
    func testAConnectionHandedToAWaiterOnAnotherLoopIsWatchedOnlyThere() throws {
        let group = try ownLoops()
        let all = try answersWaitingForOneConnection(on: group)
        let last = try XCTUnwrap(all.max { ($0.arrival ?? 0) < ($1.arrival ?? 0) }?.loop)
        XCTAssertTrue(waitUntil(timeout: 10) { self.transport.idleConnectionCount == 1 })
        let registered = group.loops.map { loop -> Int in
            let count = Lock(-1)
            let done = DispatchSemaphore(value: 0)
            loop.execute {
                count.withLock { $0 = loop.registeredCount }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            return count.withLock { $0 }
        }
        XCTAssertEqual(registered[last], 1, "parked on the last waiter's loop: \(registered)")
        XCTAssertEqual(registered[1 - last], 0, "and watched nowhere else: \(registered)")
    }
}
