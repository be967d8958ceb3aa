import Foundation
import EventLoopIO
@testable import HTTPClient
import TestSupport
import XCTest

/// An exchange cancelled while the pool hands it a connection (after the pool took it off the
/// queue, before it moves to the releasing loop): its teardown runs on the loop it started on,
/// and the connection goes back to the pool from the releasing loop without it.
final class SocketExchangeWaitingTests: XCTestCase {
    func testAnExchangeCancelledAsItIsHandedAConnectionGivesItBack() throws {
        let group = try EventLoopGroup(count: 2, label: "SocketExchangeWaitingTests")
        defer { group.loops.forEach { $0.stop() } }
        let (home, started) = (group.loops[0], group.loops[1])
        let pool = ConnectionPool(limit: 1)
        // Nothing connects: the only slot is held, and the exchange is cancelled while it waits.
        let key = ConnectionPoolKey(host: "127.0.0.1", port: 9)
        pool.acquire(key, id: pool.makeWaiterID()) { _, _ in }
        XCTAssertEqual(pool.openCount(key), 1, "a holder takes the only slot")
        let answers = Recorder<String>()
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:9/echo")))
        let exchange = SocketExchange(request: request, configuration: .init(), pool: pool, loop: started) { result in
            answers.append("\(result)")
        }
        exchange.start()
        // Its teardown waits behind the blocking task, so it is still queued in the pool.
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        started.execute {
            entered.signal()
            release.wait()
        }
        XCTAssertEqual(entered.wait(timeout: .now() + 20), .success)
        exchange.cancel()
        // Any open descriptor does: it only passes from lease to lease and into the idle list.
        let socket = try TCPSocket.listen()
        home.execute { pool.release(key, socket: socket, reusable: true, home: home) }
        XCTAssertTrue(waitUntil(timeout: 10) { pool.idleCount == 1 }, "the connection came back while the exchange's loop was blocked")
        XCTAssertEqual(pool.openCount(key), 1)
        release.signal()
        let flushed = DispatchSemaphore(value: 0)
        started.execute { flushed.signal() }
        XCTAssertEqual(flushed.wait(timeout: .now() + 10), .success, "the teardown ran")
        XCTAssertEqual(answers.values, [], "nothing is reported after cancel")
        XCTAssertEqual(pool.idleCount, 1)
        pool.closeIdleConnections()
        XCTAssertEqual(pool.openCount(key), 0)
    }
}
