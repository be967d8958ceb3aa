import SocketIO
@testable import HTTPClient
import TestSupport
import XCTest

/// Which waiting request a released connection goes to: first come, first served, except that
/// a waiter bound to the loop releasing the connection goes before earlier ones bound elsewhere
/// (within a bound), so the connection need not move to another loop. An unbound waiter runs on
/// any loop and is told which one delivers.
final class ConnectionPoolTests: XCTestCase {
    private let key = ConnectionPoolKey(host: "127.0.0.1", port: 9)
    private let served = Recorder<String>()
    private var loops: [EventLoop] = []
    private var socket = TCPSocket(descriptor: -1)

    override func setUpWithError() throws {
        loops = [try EventLoop(label: "ConnectionPoolTests.home"), try EventLoop(label: "ConnectionPoolTests.other")]
        // Only handed from lease to lease here: any open descriptor does.
        socket = try TCPSocket.listen()
    }

    override func tearDown() {
        // Each loop runs the tasks handed to it so far first (`closeIdleConnections` deregisters
        // a parked watcher of `socket` and closes it there): a socket is never closed while a
        // loop watches it. Closing twice closes once.
        for loop in loops { onLoop(loop) {} }
        for loop in loops { loop.stop() }
        socket.close()
    }

    private var home: EventLoop { loops[0] }
    private var other: EventLoop { loops[1] }

    /// Queues a request named `name` bound to `loop` (nil: unbound); it records its name when
    /// served, followed by `@home` or `@other` for the loop that delivered it (nothing when
    /// delivered at once by `acquire`) when it is unbound.
    private func wait(_ pool: ConnectionPool, _ name: String, on loop: EventLoop?) {
        let (home, other) = (self.home, self.other)
        pool.acquire(key, id: pool.makeWaiterID(), on: loop) { [served] _, releasing in
            guard loop == nil, let releasing else { return served.append(name) }
            served.append(name + (releasing === home ? "@home" : releasing === other ? "@other" : "@?"))
        }
    }

    /// Releases the connection on `loop` (on its thread), kept for the next request; returns who got it.
    private func release(_ pool: ConnectionPool, on loop: EventLoop) -> String? {
        let before = served.count
        let (key, socket) = (self.key, self.socket)
        onLoop(loop) { pool.release(key, socket: socket, reusable: true, home: loop) }
        let now = served.values
        return now.count > before ? now.last : nil
    }

    func testAReleasedConnectionGoesToTheFirstWaiterOnTheReleasingLoop() {
        let pool = ConnectionPool(limit: 1)
        wait(pool, "holder", on: home)
        wait(pool, "other 1", on: other)
        wait(pool, "home 1", on: home)
        wait(pool, "other 2", on: other)
        wait(pool, "home 2", on: home)
        XCTAssertEqual(served.values, ["holder"], "one slot: the rest wait")
        XCTAssertEqual(release(pool, on: home), "home 1", "before other 1, which is on another loop")
        XCTAssertEqual(release(pool, on: home), "home 2", "first come, first served on one loop")
        XCTAssertEqual(release(pool, on: home), "other 1", "no waiter on this loop: the first waiter")
        XCTAssertEqual(release(pool, on: other), "other 2")
        XCTAssertNil(release(pool, on: other), "nobody waits: the connection is parked")
        XCTAssertEqual(pool.idleCount, 1)
        pool.closeIdleConnections()
    }

    /// A waiter on another loop is passed over a bounded number of times, however many waiters
    /// on the releasing loop keep coming.
    func testAWaiterOnAnotherLoopIsServedAfterAtMostTheWindowOfLaterOnes() {
        let pool = ConnectionPool(limit: 1)
        wait(pool, "holder", on: home)
        wait(pool, "other", on: other)
        var servedBefore = 0
        for round in 0..<(ConnectionPool.sameLoopWindow * 3) {
            wait(pool, "home \(round)", on: home)
            if release(pool, on: home) == "other" { break }
            servedBefore += 1
        }
        XCTAssertEqual(servedBefore, ConnectionPool.sameLoopWindow, "passed over exactly the window's count of times")
        XCTAssertTrue(served.values.contains("other"))
        // "other" holds the slot and the last home waiter waits: two releases empty the pool
        pool.release(key, socket: nil, reusable: false, home: home)
        pool.release(key, socket: nil, reusable: false, home: home)
        XCTAssertEqual(pool.openCount(key), 0)
    }

    /// A slot freed without its connection goes to the first waiter, whatever its loop: it
    /// connects on its own loop anyway.
    func testAFreedSlotGoesToTheFirstWaiter() {
        let pool = ConnectionPool(limit: 1)
        wait(pool, "holder", on: home)
        wait(pool, "other", on: other)
        wait(pool, "home", on: home)
        pool.release(key, socket: nil, reusable: false, home: home)
        XCTAssertEqual(served.values, ["holder", "other"])
        pool.release(key, socket: nil, reusable: false, home: home)
        XCTAssertEqual(served.values, ["holder", "other", "home"])
        pool.release(key, socket: nil, reusable: false, home: home)
        XCTAssertEqual(pool.openCount(key), 0)
    }

    /// Unbound waiters take the loop of whatever they receive: they are served in arrival order
    /// and hear which loop released the connection.
    func testUnboundWaitersAreServedInArrivalOrderOnTheReleasingLoop() {
        let pool = ConnectionPool(limit: 1)
        wait(pool, "holder", on: nil)
        wait(pool, "unbound 1", on: nil)
        wait(pool, "bound to other", on: other)
        wait(pool, "unbound 2", on: nil)
        XCTAssertEqual(served.values, ["holder"], "delivered at once on the caller's thread: no releasing loop")
        XCTAssertEqual(release(pool, on: other), "unbound 1@other")
        XCTAssertEqual(release(pool, on: home), "unbound 2@home", "before the earlier waiter bound to another loop")
        XCTAssertEqual(release(pool, on: home), "bound to other", "nobody else waits")
        pool.release(key, socket: nil, reusable: false, home: home)
        XCTAssertEqual(pool.openCount(key), 0)
    }

    /// Runs `body` on `loop`'s thread and waits for it.
    private func onLoop(_ loop: EventLoop, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            body()
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the loop ran the task")
    }

    /// A lease given back unused goes on as a released one would: a connection to the next
    /// waiter (else parked), a slot freed.
    func testALeaseReturnedUnusedServesTheNextWaiterOrIsParked() {
        let pool = ConnectionPool(limit: 1)
        let (key, home, socket) = (self.key, self.home, self.socket)
        wait(pool, "holder", on: nil)
        wait(pool, "next", on: home)
        onLoop(home) { pool.returnUnused(.handedOver(socket), for: key, on: home) }
        XCTAssertEqual(served.values, ["holder", "next"])
        onLoop(home) { pool.returnUnused(.handedOver(socket), for: key, on: home) }
        XCTAssertEqual(pool.idleCount, 1, "nobody waits: the connection is parked")
        XCTAssertEqual(pool.openCount(key), 1)
        pool.closeIdleConnections()
        wait(pool, "fresh", on: nil)
        XCTAssertEqual(served.values.last, "fresh")
        onLoop(home) { pool.returnUnused(.fresh, for: key, on: home) }
        XCTAssertEqual(pool.openCount(key), 0, "a slot returned unused is freed")
    }
}
