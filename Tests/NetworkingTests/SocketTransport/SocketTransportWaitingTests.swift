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

/// Requests that wait in the pool for a connection: each runs on the loop of the connection it
/// receives, so connections stay on their loops and waiters are served in the order they came
/// (`SocketExchangeWaitingTests` has one cancelled as it is handed a connection).
final class SocketTransportWaitingTests: SocketTransportTestCase {
    private var group: EventLoopGroup?

    override func tearDown() {
        super.tearDown()
        group?.loops.forEach { $0.stop() }
        group = nil
    }

    /// Two loops of the test's own, so that nothing else runs on them.
    private func ownLoops() throws -> EventLoopGroup {
        let group = try EventLoopGroup(count: 2, label: "SocketTransportWaitingTests")
        self.group = group
        return group
    }

    func testWaitingRequestsAreAnsweredInTheOrderSentOnTheConnectionsLoop() throws {
        let group = try ownLoops()
        transport = SocketTransport(client: HTTPClient(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(10)), loops: group))
        // Which request answered, and the index of the loop that ran its completion.
        let answers = Lock<[(request: Int, loop: Int?)]>([])
        let done = DispatchGroup()
        func send(_ index: Int, _ path: String) {
            done.enter()
            _ = transport.send(request(path), progress: nil) { result in
                let loop = group.loops.firstIndex { $0.inLoop }
                let ok = (try? result.get().statusCode) == 200
                answers.withLock { $0.append((ok ? index : -index - 1, loop)) }
                done.leave()
            }
        }
        send(0, "delay/300")
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/delay/300") == 1 }, "the first request holds the connection")
        // Sent round robin over both loops; all of them wait for the one connection.
        for index in 1...12 { send(index, "echo?i=\(index)") }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "every request was answered")
        let all = answers.withLock { $0 }
        XCTAssertEqual(all.map(\.request), Array(0...12), "answered one by one, in the order sent")
        XCTAssertEqual(Set(all.map(\.loop)).count, 1, "every answer on the loop of the one connection: \(all.map(\.loop))")
        XCTAssertNotNil(all.first?.loop)
        XCTAssertEqual(server.connectionCount, 1)
    }

    /// A waiting request does not need the loop it was started on: handed a connection by the
    /// other loop, it runs there, even while its own loop is busy.
    func testAWaitingRequestIsServedWhileTheLoopItStartedOnIsBusy() throws {
        let group = try ownLoops()
        transport = SocketTransport(client: HTTPClient(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(10)), loops: group))
        let first = Outcome()
        _ = transport.send(request("delay/300"), progress: nil, completion: first.record)
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/delay/300") == 1 })
        // The loop without the connection's registration is the one to block.
        let registered = group.loops.map { loop -> Int in
            let count = Lock(0)
            let done = DispatchSemaphore(value: 0)
            loop.execute {
                count.withLock { $0 = loop.registeredCount }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            return count.withLock { $0 }
        }
        XCTAssertEqual(registered.sorted(), [0, 1], "one loop watches the connection: \(registered)")
        let idle = try XCTUnwrap(group.loops.indices.first { registered[$0] == 0 })
        let unblock = block([group.loops[idle]])
        defer { unblock() }
        // Round robin: one of the two starts on the blocked loop.
        let waiting = [Outcome(), Outcome()]
        for outcome in waiting { _ = transport.send(request("echo"), progress: nil, completion: outcome.record) }
        XCTAssertEqual(first.done.wait(timeout: .now() + 20), .success)
        for outcome in waiting {
            XCTAssertEqual(outcome.done.wait(timeout: .now() + 20), .success, "answered with its starting loop blocked")
            XCTAssertEqual(try outcome.first?.get().statusCode, 200)
        }
    }
}
