import EventLoopIO
@testable import HTTPClient
import Locking
import TestSupport
import XCTest

/// Which waiting request a released connection goes to (first come, first served, each on its
/// own loop), where idle connections are taken from, and how long they wait.
final class ConnectionPoolTests: XCTestCase {
    private let key = ConnectionPoolKey(host: "127.0.0.1", port: 9)
    private let served = Recorder<String>()
    private var loops: [EventLoop] = []
    private var sockets: [TCPSocket] = []

    override func setUpWithError() throws {
        loops = [try EventLoop(label: "ConnectionPoolTests.home"), try EventLoop(label: "ConnectionPoolTests.other")]
    }

    override func tearDown() {
        // Each loop runs the tasks handed to it so far first (closing a parked connection
        // deregisters it there): a socket is never closed while a loop watches it. Closing twice
        // closes once.
        for loop in loops { onLoop(loop) {} }
        for socket in sockets { socket.close() }
        for loop in loops { loop.stop() }
    }

    private var home: EventLoop { loops[0] }
    private var other: EventLoop { loops[1] }

    /// A socket to pass from lease to lease (any open descriptor does: nothing is sent on it).
    private func makeSocket() throws -> TCPSocket {
        let socket = try TCPSocket.listen()
        sockets.append(socket)
        return socket
    }

    /// Runs `body` on `loop`'s thread and waits for it.
    private func onLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () -> T) -> T? {
        let result = Lock<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            result.withLock { $0 = body() }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the loop ran the task")
        return result.withLock { $0 }
    }

    private func name(_ loop: EventLoop) -> String {
        loop === home ? "home" : loop === other ? "other" : "?"
    }

    /// Asks on `loop` for a connection for a request named `name`; says what it got at once
    /// ("fresh", "here", "elsewhere", or "queued"). A queued one records "NAME@LOOP got LEASE"
    /// when served, LOOP being the loop its delivery ran on.
    @discardableResult
    private func ask(_ pool: ConnectionPool, _ name: String, on loop: EventLoop) -> String? {
        let (key, served) = (self.key, self.served)
        let homeLoop = home
        let waiter = ConnectionPool.Waiter(id: ObjectIdentifier(Recorder<Int>()), loop: loop) { lease in
            let kind = switch lease {
            case .fresh: "slot"
            case .reused: "reused"
            case .handedOver: "connection"
            }
            let ranOn = homeLoop.inLoop ? "home" : "other"
            served.append("\(name)@\(ranOn) got \(kind)")
        }
        return onLoop(loop) { () -> String in
            switch pool.acquire(key, waiter: waiter) {
            case .fresh?: "fresh"
            case .here?: "here"
            case .elsewhere?: "elsewhere"
            case nil: "queued"
            }
        }
    }

    /// Waiters are served in arrival order, each on the loop it asked on, whichever loop releases;
    /// a slot freed without its connection goes on the same way.
    func testWaitersAreServedInArrivalOrderOnTheirOwnLoops() throws {
        let pool = ConnectionPool(limit: 1)
        let socket = try makeSocket()
        let (key, home, other) = (self.key, self.home, self.other)
        XCTAssertEqual(ask(pool, "holder", on: home), "fresh")
        XCTAssertEqual(ask(pool, "first", on: other), "queued")
        XCTAssertEqual(ask(pool, "second", on: home), "queued")
        XCTAssertEqual(ask(pool, "third", on: other), "queued")
        _ = onLoop(home) { pool.release(key, connection: Connection(socket: socket), reusable: true, on: home) }
        _ = onLoop(other) {}
        XCTAssertEqual(served.values, ["first@other got connection"], "handed to the first waiter, on its loop")
        _ = onLoop(other) { pool.release(key, connection: Connection(socket: socket), reusable: true, on: other) }
        _ = onLoop(home) {}
        XCTAssertEqual(served.values.last, "second@home got connection")
        _ = onLoop(home) { pool.release(key, connection: nil, reusable: false, on: home) }
        _ = onLoop(other) {}
        XCTAssertEqual(served.values.last, "third@other got slot", "a freed slot goes to the next waiter")
        XCTAssertEqual(pool.openCount(key), 1)
        _ = onLoop(other) { pool.release(key, connection: nil, reusable: false, on: other) }
        XCTAssertEqual(pool.openCount(key), 0)
    }

    /// A released connection nobody waits for is parked on the loop that released it; a request
    /// on that loop takes it in place, one on another loop has it moved; `preferredLoop` names
    /// the loop where it waits.
    func testAnIdleConnectionIsTakenHereOrMovedFromItsHome() throws {
        let pool = ConnectionPool(limit: 2)
        let (key, home, other) = (self.key, self.home, self.other)
        XCTAssertNil(pool.preferredLoop(for: key))
        XCTAssertEqual(ask(pool, "a", on: home), "fresh")
        let socket = try makeSocket()
        _ = onLoop(home) { pool.release(key, connection: Connection(socket: socket), reusable: true, on: home) }
        XCTAssertEqual(pool.idleCount, 1)
        XCTAssertTrue(pool.preferredLoop(for: key) === home)
        XCTAssertEqual(onLoop(home) { home.registeredCount }, 1, "parked and watched on its home loop")
        // Taken from another loop, it is moved there before it is used (as an exchange does).
        let moved = DispatchSemaphore(value: 0)
        let waiter = ConnectionPool.Waiter(id: ObjectIdentifier(self), loop: other) { _ in }
        let taken = onLoop(other) { () -> Bool in
            guard case .elsewhere(let parked)? = pool.acquire(key, waiter: waiter) else { return false }
            parked.move(to: other) { _ in moved.signal() }
            return true
        }
        XCTAssertEqual(taken, true, "taken from another loop")
        XCTAssertEqual(moved.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(pool.idleCount, 0)
        _ = onLoop(other) { pool.release(key, connection: Connection(socket: socket), reusable: true, on: other) }
        XCTAssertTrue(pool.preferredLoop(for: key) === other)
        XCTAssertEqual(ask(pool, "c", on: other), "here", "taken where it waits")
        _ = onLoop(other) { pool.release(key, connection: Connection(socket: socket), reusable: true, on: other) }
        pool.closeIdleConnections()
        XCTAssertEqual(onLoop(other) { other.registeredCount }, 0, "the pool's close stopped the watch")
        XCTAssertEqual(socket.descriptor, -1, "and closed it")
        XCTAssertEqual(pool.openCount(key), 0)
    }

    /// `move(to:)` stops the watch on the home loop before the other loop gets the socket.
    func testAMovedConnectionIsWatchedNowhereWhenItArrives() throws {
        let pool = ConnectionPool(limit: 1)
        let (key, home, other) = (self.key, self.home, self.other)
        XCTAssertEqual(ask(pool, "a", on: home), "fresh")
        let socket = try makeSocket()
        _ = onLoop(home) { pool.release(key, connection: Connection(socket: socket), reusable: true, on: home) }
        let arrived = DispatchSemaphore(value: 0)
        let counts = Lock<Int?>(nil)
        let waiter = ConnectionPool.Waiter(id: ObjectIdentifier(self), loop: other) { _ in }
        _ = onLoop(other) {
            guard case .elsewhere(let parked)? = pool.acquire(key, waiter: waiter) else { return }
            parked.move(to: other) { _ in
                counts.withLock { $0 = other.registeredCount }
                arrived.signal()
            }
        }
        XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(counts.withLock { $0 }, 0, "it arrives registered nowhere")
        XCTAssertEqual(onLoop(home) { home.registeredCount }, 0, "the home loop stopped watching it")
        _ = onLoop(other) { pool.release(key, connection: Connection(socket: socket), reusable: false, on: other) }
    }

    /// A connection idle for the pool's idle timeout is closed and its slot freed.
    func testAConnectionIdleTooLongIsClosed() throws {
        let pool = ConnectionPool(limit: 1, idleTimeout: .milliseconds(100))
        let (key, home) = (self.key, self.home)
        XCTAssertEqual(ask(pool, "a", on: home), "fresh")
        let socket = try makeSocket()
        _ = onLoop(home) { pool.release(key, connection: Connection(socket: socket), reusable: true, on: home) }
        XCTAssertEqual(pool.idleCount, 1)
        XCTAssertTrue(waitUntil(timeout: 10) { pool.idleCount == 0 }, "still pooled after its idle timeout")
        XCTAssertEqual(pool.openCount(key), 0)
        XCTAssertEqual(onLoop(home) { home.registeredCount }, 0)
        XCTAssertEqual(socket.descriptor, -1)
    }

    /// A waiter that leaves the queue is not served; the next one is.
    func testACancelledWaiterIsSkipped() throws {
        let pool = ConnectionPool(limit: 1)
        let (key, home) = (self.key, self.home)
        XCTAssertEqual(ask(pool, "holder", on: home), "fresh")
        let leaving = ConnectionPool.Waiter(id: ObjectIdentifier(self), loop: home) { [served] _ in served.append("left, yet served") }
        XCTAssertEqual(onLoop(home) { pool.acquire(key, waiter: leaving) == nil }, true)
        XCTAssertEqual(ask(pool, "next", on: home), "queued")
        XCTAssertTrue(pool.cancelWaiting(key, id: ObjectIdentifier(self)))
        XCTAssertFalse(pool.cancelWaiting(key, id: ObjectIdentifier(self)), "gone already")
        _ = onLoop(home) { pool.release(key, connection: nil, reusable: false, on: home) }
        _ = onLoop(home) {}
        XCTAssertEqual(served.values, ["next@home got slot"])
        _ = onLoop(home) { pool.release(key, connection: nil, reusable: false, on: home) }
    }
}
