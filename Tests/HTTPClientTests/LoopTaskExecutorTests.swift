import EventLoopIO
import FeedServer
import Foundation
import HTTPClient
import TestSupport
import XCTest

/// `HTTPClient.taskExecutor` against a `FeedServer` on 127.0.0.1: a task that prefers it sends
/// each request from the loop where the last answer arrived and goes on there, so awaited
/// requests one after another never wake the loop from another thread.
final class LoopTaskExecutorTests: HTTPClientTestCase {
    /// Per request of `count` awaited one after another on `client` (the first one opens the
    /// connection and is not counted): whether the task went on on `loop`, and the loop's
    /// wake-ups from other threads over the rest; nil when they did not finish in 20 s.
    private func awaitedRequests(_ count: Int, on client: HTTPClient, loop: EventLoop,
                                 preferring executor: (any TaskExecutor)?) -> (onLoop: [Bool], wakeUps: Int)? {
        let outcome = Recorder<([Bool], Int)>()
        let request = HTTPClientRequest(url: url("echo"))
        Task(executorPreference: executor) {
            _ = try? await client.execute(request)
            let before = loop.wakeUpCount
            var onLoop: [Bool] = []
            for _ in 0..<count {
                let status = (try? await client.execute(request))?.status
                onLoop.append(status == 200 && loop.inLoop)
            }
            outcome.append((onLoop, loop.wakeUpCount - before))
        }
        guard waitUntil(timeout: 20, { outcome.count == 1 }), let (onLoop, wakeUps) = outcome.values.first else { return nil }
        return (onLoop, wakeUps)
    }

    func testAwaitedRequestsOfATaskPreferringTheClientsLoopsRunThereAndNeverWakeThem() throws {
        let loops = try EventLoopGroup(count: 1, label: "LoopTaskExecutorTests")
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5)), loops: loops)
        defer { client.closeIdleConnections() }
        let loop = loops.loops[0]
        let preferring = try XCTUnwrap(awaitedRequests(20, on: client, loop: loop, preferring: client.taskExecutor))
        XCTAssertEqual(preferring.onLoop, Array(repeating: true, count: 20), "every answer arrived and the task went on on the loop")
        XCTAssertEqual(preferring.wakeUps, 0, "each request was handed over on the loop's own thread")
        XCTAssertEqual(server.requestCount(path: "/echo"), 21)
        // Without the preference the task goes on off the loop, and its requests wake the loop.
        let plain = try XCTUnwrap(awaitedRequests(20, on: client, loop: loop, preferring: nil))
        XCTAssertEqual(plain.onLoop, Array(repeating: false, count: 20))
        XCTAssertGreaterThan(plain.wakeUps, 0)
    }

    func testARequestFromATaskOnALoopTakesTheIdleConnectionOfThatLoop() throws {
        let loops = try EventLoopGroup(count: 2, label: "LoopTaskExecutorTests.two")
        let client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5)), loops: loops)
        defer { client.closeIdleConnections() }
        let (first, second) = (loops.loops[0], loops.loops[1])
        // One connection opened from each loop, the second loop's parked last (the pool's most
        // recent idle connection, which a caller off the loops is sent to).
        let done = Recorder<Int>()
        for (loop, delay) in [(first, 100), (second, 400)] {
            let request = HTTPClientRequest(url: url("delay/\(delay)"))
            Task(executorPreference: loop) { done.append((try? await client.execute(request))?.status ?? 0) }
        }
        XCTAssertTrue(waitUntil(timeout: 20) { done.count == 2 && client.idleConnectionCount == 2 })
        XCTAssertEqual(done.values, [200, 200])
        let request = HTTPClientRequest(url: url("echo"))
        let wakeUps = Recorder<[Int]>()
        Task(executorPreference: first) {
            let before = [first.wakeUpCount, second.wakeUpCount]
            let status = (try? await client.execute(request))?.status ?? 0
            wakeUps.append([status, first.wakeUpCount - before[0], second.wakeUpCount - before[1]])
        }
        XCTAssertTrue(waitUntil(timeout: 20) { wakeUps.count == 1 })
        XCTAssertEqual(wakeUps.values.first, [200, 0, 0], "sent and answered on the first loop's connection, waking neither loop")
        XCTAssertEqual(client.idleConnectionCount, 2)
    }

    func testAFailureReachesATaskPreferringTheLoopsAsItReachesAnyOther() throws {
        let closed = try FeedServer()
        let port = closed.port
        closed.stop()
        let outcome = Recorder<(HTTPClientError?, Bool)>()
        let client = try XCTUnwrap(self.client)
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/echo")))
        Task(executorPreference: client.taskExecutor) {
            do throws(HTTPClientError) {
                _ = try await client.execute(request)
                outcome.append((nil, HTTPClientTestCase.onALoop()))
            } catch {
                outcome.append((error, HTTPClientTestCase.onALoop()))
            }
        }
        XCTAssertTrue(waitUntil(timeout: 20) { outcome.count == 1 })
        guard case (.cannotConnect(_, port: Int(port), _)?, true)? = outcome.values.first else {
            return XCTFail("expected .cannotConnect on a loop, got \(String(describing: outcome.values.first))")
        }
    }
}
