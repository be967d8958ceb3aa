import Foundation
import EventLoopIO
@testable import HTTPClient
import Locking
import TestSupport
import XCTest

/// An exchange cancelled while the pool hands it a connection on another loop: the lease reaches
/// the exchange's loop after the cancel, and the connection goes back to the pool on its own
/// loop, never reported.
final class SocketExchangeWaitingTests: XCTestCase {
    func testAnExchangeCancelledAsItIsHandedAConnectionGivesItBack() throws {
        let group = try EventLoopGroup(count: 2, label: "SocketExchangeWaitingTests")
        let (home, started) = (group.loops[0], group.loops[1])
        let pool = ConnectionPool(limit: 1)
        // A listener that never accepts: the kernel completes the pool's connect, nothing is sent.
        let listener = try TCPSocket.listen()
        defer { listener.close() }
        let key = ConnectionPoolKey(host: "127.0.0.1", port: try listener.localPort())
        let held = Lock<Connection?>(nil)
        let holder = ConnectionPool.Waiter(id: ObjectIdentifier(pool), loop: home) { lease in held.withLock { $0 = lease.connection } }
        home.execute { _ = pool.acquire(key, waiter: holder) }
        XCTAssertTrue(waitUntil(timeout: 10) { held.withLock { $0 } != nil }, "a holder takes the only slot")
        let connection = try XCTUnwrap(held.withLock { $0 })
        XCTAssertEqual(pool.openCount(key), 1)
        let answers = Recorder<String>()
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(key.port)/echo"))
        let exchange = SocketExchange(request: HTTPClientRequest(url: url), target: SocketRequestTarget.read(url), configuration: .init(),
                                      pool: pool, loop: started, loops: group) { result, _ in answers.append("\(result)") }
        exchange.start()
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 0 && pool.waitingCount(key) > 0 }, "the exchange waits in the pool")
        // Its loop is blocked; the cancel and the lease both reach it later, in that order.
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        started.execute {
            entered.signal()
            release.wait()
        }
        XCTAssertEqual(entered.wait(timeout: .now() + 20), .success)
        exchange.cancel()
        home.execute { pool.release(connection, reusable: true) }
        XCTAssertTrue(waitUntil(timeout: 10) { pool.waitingCount(key) == 0 }, "the pool handed the connection over")
        XCTAssertEqual(pool.idleCount, 0, "on its way to the blocked loop")
        release.signal()
        XCTAssertTrue(waitUntil(timeout: 10) { pool.idleCount == 1 }, "the connection came back, parked on its own loop")
        XCTAssertTrue(pool.preferredLoop(for: key) === home, "the cancelled exchange never took it to its loop")
        XCTAssertEqual(pool.openCount(key), 1)
        XCTAssertEqual(answers.values, [], "nothing is reported after cancel")
        pool.closeIdleConnections()
        let flushed = DispatchSemaphore(value: 0)
        home.execute { flushed.signal() }
        XCTAssertEqual(flushed.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(pool.openCount(key), 0)
        XCTAssertEqual(connection.socket.descriptor, -1, "closed by the pool")
    }
}
