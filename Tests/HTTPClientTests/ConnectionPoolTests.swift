import EventLoopIO
@testable import HTTPClient
import TestSupport
import XCTest

/// Which waiting request a released connection goes to: first come, first served, told which
/// loop delivers it.
final class ConnectionPoolTests: XCTestCase {
    private let key = ConnectionPoolKey(host: "127.0.0.1", port: 9)
    private let served = Recorder<String>()
    private var loops: [EventLoop] = []
    private var socket: TCPSocket!

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

    /// Queues a request named `name`; it records its name when served, followed by `@home` or
    /// `@other` for the loop that delivered it (nothing when delivered at once by `acquire`).
    private func wait(_ pool: ConnectionPool, _ name: String) {
        let (home, other) = (self.home, self.other)
        pool.acquire(key, id: pool.makeWaiterID()) { [served] _, releasing in
            guard let releasing else { return served.append(name) }
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

    /// Waiters are served in arrival order, whichever loop releases the connection, and hear
    /// which loop that was; a slot freed without its connection goes on the same way.
    func testWaitersAreServedInArrivalOrderAndHearTheReleasingLoop() {
        let pool = ConnectionPool(limit: 1)
        wait(pool, "holder")
        wait(pool, "first")
        wait(pool, "second")
        wait(pool, "third")
        XCTAssertEqual(served.values, ["holder"], "delivered at once on the caller's thread: no releasing loop")
        XCTAssertEqual(release(pool, on: other), "first@other")
        XCTAssertEqual(release(pool, on: home), "second@home")
        let (key, home) = (self.key, self.home)
        onLoop(home) { pool.release(key, socket: nil, reusable: false, home: home) }
        XCTAssertEqual(served.values.last, "third@home", "a freed slot goes to the next waiter")
        XCTAssertNil(release(pool, on: home), "nobody waits: the connection is parked")
        XCTAssertEqual(pool.idleCount, 1)
        pool.closeIdleConnections()
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
        let (key, home, socket) = (self.key, self.home, self.socket!)
        wait(pool, "holder")
        wait(pool, "next")
        onLoop(home) { pool.returnUnused(.handedOver(socket), for: key, on: home) }
        XCTAssertEqual(served.values, ["holder", "next@home"])
        onLoop(home) { pool.returnUnused(.handedOver(socket), for: key, on: home) }
        XCTAssertEqual(pool.idleCount, 1, "nobody waits: the connection is parked")
        XCTAssertEqual(pool.openCount(key), 1)
        pool.closeIdleConnections()
        wait(pool, "fresh")
        XCTAssertEqual(served.values.last, "fresh")
        onLoop(home) { pool.returnUnused(.fresh, for: key, on: home) }
        XCTAssertEqual(pool.openCount(key), 0, "a slot returned unused is freed")
    }
}
