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

/// Requests that wait in the pool for a connection: each goes to the loop of the connection it
/// gets (the connection never moves), and waiters are served in the order they were sent
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
    /// they were sent, each on the connection's loop: the requests go to it, not it to them.
    func testWaitingRequestsAreServedInTheOrderSentOnTheConnectionsLoop() throws {
        let group = try ownLoops()
        let answers = try answersWaitingForOneConnection(on: group)
        let all = answers.dropFirst()
        XCTAssertEqual(all.map(\.arrival), Array(1...12).map { Optional($0) }, "the server received them in the order sent")
        let home = try XCTUnwrap(answers.first?.loop, "the first request ran on the loop it opened the connection on")
        XCTAssertEqual(all.map(\.loop), Array(repeating: home, count: 12),
                       "requests sent round robin over both loops each ran on the connection's loop")
        XCTAssertEqual(server.connectionCount, 1, "one connection served them all")
    }

    /// The connection, having served waiters that started on both loops, is parked on its own
    /// loop and watched nowhere else.
    func testAConnectionThatServedWaitersOnBothLoopsIsWatchedOnlyOnItsOwn() throws {
        let group = try ownLoops()
        let all = try answersWaitingForOneConnection(on: group)
        let last = try XCTUnwrap(all.first?.loop)
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
        XCTAssertEqual(registered[last], 1, "parked on the loop it was opened on: \(registered)")
        XCTAssertEqual(registered[1 - last], 0, "and watched nowhere else: \(registered)")
    }
}

/// A redirect to a host whose idle connection waits on another loop: the next hop goes to that
/// loop (in a task of its own, after the read that got the redirect), on the kept connection.
final class SocketTransportRedirectAcrossLoopsTests: SocketTransportTestCase {
    func testARedirectGoesToTheLoopOfTheIdleConnectionItReuses() throws {
        let group = try EventLoopGroup(count: 2, label: "SocketTransportRedirectAcrossLoopsTests")
        transport = SocketTransport(client: HTTPClient(configuration: .init(idleTimeout: .seconds(10)), loops: group))
        let echo = url("echo")
        // The first request takes the group's first loop, where its connection then waits.
        XCTAssertEqual(try send(URLRequest(url: echo)).1.get().statusCode, 200)
        XCTAssertTrue(waitUntil(timeout: 10) { self.transport.idleConnectionCount == 1 })
        let redirecting = try ScriptedHTTPServer { _, _, _ in
            .respond(Array("HTTP/1.1 302 Found\r\nLocation: \(echo.absoluteString)\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        defer { redirecting.stop() }
        // The second starts on the other loop, and its redirect finds the idle connection.
        let answeredOn = Lock<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        let answers = Recorder<Int>()
        _ = transport.send(URLRequest(url: redirecting.url("/start")), progress: nil) { result in
            answeredOn.withLock { $0 = group.loops.firstIndex { $0.inLoop } }
            answers.append((try? result.get().statusCode) ?? 0)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 15), .success)
        XCTAssertEqual(answers.values, [200])
        XCTAssertEqual(answeredOn.withLock { $0 }, 0, "the redirect's hop ran on the loop of the connection it reused")
        XCTAssertEqual(server.connectionCount, 1, "on the kept connection")
        XCTAssertEqual(server.requestCount(path: "/echo"), 2)
    }
}
