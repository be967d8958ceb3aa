import EventLoopIO
import FeedServer
import Foundation
@testable import HTTPClient
import Locking
import TestSupport
import XCTest

/// A connection lives on the loop it was opened on: a request that starts on another loop goes to
/// the connection's, and the connection waits in the pool on its own loop again afterwards.
/// Against a `FeedServer` on 127.0.0.1, with a client on two loops of its own.
final class ConnectionLoopTests: TwoLoopPoolTestCase {
    /// Starts `url` as an exchange on `loop` (as the client's caller thread would, had it picked
    /// that loop); `answered` gets the status and the loop the answer came on.
    private func start(_ url: URL, on loop: EventLoop, answered: @escaping @Sendable (Int, EventLoop?) -> Void) {
        let exchange = SocketExchange(request: HTTPClientRequest(url: url), target: SocketRequestTarget.read(url), configuration: .init(),
                                      pool: pool, loop: loop, loops: group, ticket: pool.makeTicket()) { result, _ in
            answered((try? result.get().status) ?? 0, EventLoop.current)
        }
        exchange.start()
    }

    /// Sends `url` as an exchange started on `loop`; returns the status and the loop the answer came on.
    private func send(_ url: URL, startingOn loop: EventLoop) throws -> (Int?, EventLoop?) {
        let answers = Recorder<Int>()
        let answeredOn = Lock<EventLoop?>(nil)
        start(url, on: loop) { status, loop in
            answeredOn.withLock { $0 = loop }
            answers.append(status)
        }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 }, "answered")
        return (answers.values.first, answeredOn.withLock { $0 })
    }

    func testARequestRunsOnTheLoopOfTheConnectionItGets() throws {
        let (first, second, pool) = (group.loops[0], group.loops[1], self.pool!)
        let url = self.url("echo")
        let key = try SocketRequestTarget.read(url).get().key

        let (status, loop) = try send(url, startingOn: first)
        XCTAssertEqual(status, 200)
        XCTAssertTrue(loop === first, "opened where the request started")
        XCTAssertTrue(waitUntil(timeout: 10) { pool.idleCount == 1 })
        XCTAssertTrue(pool.preferredLoop(for: key) === first)

        // Started on the other loop, the request goes to the connection's.
        let (again, movedTo) = try send(url, startingOn: second)
        XCTAssertEqual(again, 200)
        XCTAssertTrue(movedTo === first, "the request ran on the connection's loop")
        XCTAssertTrue(waitUntil(timeout: 10) { pool.idleCount == 1 })
        XCTAssertTrue(pool.preferredLoop(for: key) === first, "the connection waits on its own loop again: it never moved")
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(server.requestCount(path: "/echo"), 2)
    }

    /// A request waiting on one loop for a connection released on another goes to that loop.
    func testAWaitingRequestGoesToTheLoopOfTheConnectionHandedToIt() throws {
        let (first, second) = (group.loops[0], group.loops[1])
        let slow = self.url("delay/300")
        let answers = Recorder<String>()
        for (name, loop, url) in [("slow", first, slow), ("waiting", second, self.url("echo"))] {
            start(url, on: loop) { status, loop in
                answers.append("\(name) \(status) on \(loop === first ? "first" : loop === second ? "second" : "?")")
            }
            // The slow request holds the only connection before the other one asks.
            if name == "slow" { XCTAssertTrue(waitUntil(timeout: 10) { self.server.requestCount(path: "/delay/300") == 1 }) }
        }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 2 })
        XCTAssertEqual(answers.values, ["slow 200 on first", "waiting 200 on first"])
        XCTAssertEqual(server.connectionCount, 1, "the waiting request got the slow one's connection")
    }
}
