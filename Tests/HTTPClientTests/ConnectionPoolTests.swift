import EventLoopIO
@testable import HTTPClient
import Locking
import TestSupport
import XCTest

/// The pool against a real listener on 127.0.0.1 (the kernel completes its handshakes; nothing
/// is sent): who receives a connection the pool opened or one released (first come, first
/// served, each on its own loop), where idle connections are taken from, how long they wait,
/// and a connect that outlives the request that caused it.
final class ConnectionPoolTests: XCTestCase {
    private var key = ConnectionPoolKey(host: "127.0.0.1", port: 9)
    private let served = Recorder<String>()
    /// The connections delivered to waiters, with the waiter's name.
    private let delivered = Recorder<(name: String, connection: Connection)>()
    private var loops: [EventLoop] = []
    private var listener: TCPSocket?

    override func setUpWithError() throws {
        loops = [try EventLoop(label: "ConnectionPoolTests.home"), try EventLoop(label: "ConnectionPoolTests.other")]
        let listener = try TCPSocket.listen()
        self.listener = listener
        key = ConnectionPoolKey(host: "127.0.0.1", port: try listener.localPort())
    }

    override func tearDown() {
        // Each loop runs the tasks handed to it so far first (closing a parked connection
        // deregisters it there): a socket is never closed while a loop watches it.
        for loop in loops { onLoop(loop) {} }
        listener?.close()
        for loop in loops { loop.stop() }
    }

    private var home: EventLoop { loops[0] }
    private var other: EventLoop { loops[1] }

    /// Runs `body` on `loop`'s thread and waits for it.
    @discardableResult
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

    /// Asks on `loop` for a connection for a request named `name`; says what it got at once
    /// ("here", "elsewhere", or "queued"). A queued one records "NAME@LOOP got LEASE" when
    /// served, LOOP being the loop its delivery ran on, and keeps the connection under its name.
    @discardableResult
    private func ask(_ pool: ConnectionPool, _ name: String, on loop: EventLoop, ticket: UInt64 = 0, id: ObjectIdentifier? = nil) -> String? {
        let (served, delivered, homeLoop) = (self.served, self.delivered, home)
        var waiter = ConnectionPool.Waiter(id: id ?? ObjectIdentifier(Recorder<Int>()), loop: loop) { lease in
            let kind = switch lease {
            case .connected: "connected"
            case .reused: "reused"
            case .handedOver: "connection"
            case .failed(let failure): "failed \(failure)"
            }
            if let connection = lease.connection { delivered.append((name, connection)) }
            served.append("\(name)@\(homeLoop.inLoop ? "home" : "other") got \(kind)")
        }
        waiter.ticket = ticket
        let (key, asking) = (self.key, waiter)
        return onLoop(loop) { () -> String in
            switch pool.acquire(key, waiter: asking) {
            case .here(let parked)?:
                parked.takenHere()
                delivered.append((name, parked.connection))
                return "here"
            case .elsewhere(let parked)?:
                delivered.append((name, parked.connection))
                return "elsewhere"
            case nil:
                return "queued"
            }
        }
    }

    private func connection(of name: String) throws -> Connection {
        try XCTUnwrap(delivered.values.last { $0.name == name }?.connection, "\(name) has a connection")
    }

    /// The pool opens a connection for the first request and gives it to it on its loop; released
    /// connections go to the waiters in arrival order, each on its own loop, whichever loop
    /// releases; a closed one's slot opens a new connection for the next waiter.
    func testWaitersAreServedInArrivalOrderOnTheirOwnLoops() throws {
        let pool = ConnectionPool(limit: 1)
        let (home, other) = (self.home, self.other)
        XCTAssertEqual(ask(pool, "holder", on: home, ticket: 1), "queued")
        XCTAssertTrue(waitUntil(timeout: 10) { self.served.count == 1 })
        XCTAssertEqual(served.values, ["holder@home got connected"], "opened for the waiter, on its loop")
        XCTAssertEqual(ask(pool, "first", on: other, ticket: 2), "queued")
        XCTAssertEqual(ask(pool, "second", on: home, ticket: 3), "queued")
        XCTAssertEqual(ask(pool, "third", on: other, ticket: 4), "queued")
        XCTAssertEqual(pool.connectingCount(key), 0, "at the limit: nothing more is opened")
        let held = try connection(of: "holder")
        XCTAssertTrue(held.loop === home, "opened on the loop where the need arose")
        onLoop(home) { pool.release(held, reusable: true) }
        XCTAssertTrue(waitUntil(timeout: 10) { self.served.count == 2 })
        XCTAssertEqual(served.values.last, "first@other got connection", "handed to the first waiter, on its loop")
        let first = try connection(of: "first")
        XCTAssertTrue(first === held)
        XCTAssertTrue(first.loop === home, "a connection keeps its loop, whoever uses it")
        onLoop(home) { pool.release(first, reusable: true) }
        XCTAssertTrue(waitUntil(timeout: 10) { self.served.count == 3 })
        XCTAssertEqual(served.values.last, "second@home got connection")
        let second = try connection(of: "second")
        onLoop(home) { pool.release(second, reusable: false) }
        XCTAssertTrue(waitUntil(timeout: 10) { self.served.count == 4 })
        XCTAssertEqual(served.values.last, "third@other got connected", "a closed connection's slot opens a new one for the next waiter")
        XCTAssertEqual(second.socket.descriptor, -1, "the one released unusable was closed")
        XCTAssertEqual(pool.openCount(key), 1)
        let third = try connection(of: "third")
        XCTAssertTrue(third.loop === home, "opened where the slot was freed")
        onLoop(home) { pool.release(third, reusable: false) }
        XCTAssertEqual(pool.openCount(key), 0)
    }

    /// A request that gives up while the pool opens its connection leaves the connect running:
    /// the connection goes to the next request waiting, or is parked when none waits.
    func testAConnectOutlivesTheRequestThatCausedIt() throws {
        let pool = ConnectionPool(limit: 1)
        let (home, key, served) = (self.home, self.key, self.served)
        let leaving = ObjectIdentifier(Recorder<Bool>())
        let delivered = self.delivered
        let next = ConnectionPool.Waiter(id: ObjectIdentifier(pool), loop: home) { lease in
            if let connection = lease.connection { delivered.append(("next", connection)) }
            served.append("next got \(lease.connection == nil ? "no connection" : "one")")
        }
        // The request, its cancel and the next request in one task: the connect cannot finish in between.
        onLoop(home) {
            let waiter = ConnectionPool.Waiter(id: leaving, loop: home) { _ in served.append("left, yet served") }
            XCTAssertNil(pool.acquire(key, waiter: waiter))
            XCTAssertEqual(pool.connectingCount(key), 1, "a connection is being opened")
            XCTAssertTrue(pool.cancelWaiting(key, id: leaving))
            XCTAssertEqual(pool.connectingCount(key), 1, "and goes on without its request")
            XCTAssertNil(pool.acquire(key, waiter: next))
            XCTAssertEqual(pool.connectingCount(key), 1, "the next request waits for the one under way")
        }
        XCTAssertTrue(waitUntil(timeout: 10) { self.served.count == 1 })
        XCTAssertEqual(served.values, ["next got one"])
        XCTAssertEqual(pool.openCount(key), 1, "one connection opened for both")
        let used = try connection(of: "next")
        onLoop(home) { pool.release(used, reusable: false) }

        onLoop(home) {
            let waiter = ConnectionPool.Waiter(id: leaving, loop: home) { _ in served.append("left, yet served") }
            XCTAssertNil(pool.acquire(key, waiter: waiter))
            XCTAssertTrue(pool.cancelWaiting(key, id: leaving))
        }
        XCTAssertTrue(waitUntil(timeout: 10) { pool.idleCount == 1 }, "nobody waits: parked")
        XCTAssertEqual(served.values, ["next got one"])
        pool.closeIdleConnections()
        XCTAssertTrue(waitUntil(timeout: 10) { pool.openCount(key) == 0 })
    }

    /// A connect that fails fails the first waiter only; the next gets an attempt of its own.
    func testAFailedConnectFailsTheFirstWaiter() throws {
        listener?.close()
        listener = nil
        let pool = ConnectionPool(limit: 1)
        XCTAssertEqual(ask(pool, "a", on: home, ticket: 1), "queued")
        XCTAssertEqual(ask(pool, "b", on: other, ticket: 2), "queued")
        XCTAssertTrue(waitUntil(timeout: 10) { self.served.count == 2 })
        XCTAssertEqual(Set(served.values), ["a@home got failed cannotConnect(errno: \(ECONNREFUSED))",
                                            "b@other got failed cannotConnect(errno: \(ECONNREFUSED))"])
        XCTAssertEqual(pool.openCount(key), 0)
    }

    /// A released connection nobody waits for is parked on its loop; a request on that loop
    /// takes it in place, one on another loop is told to go there (the connection never moves);
    /// `preferredLoop` names the loop where it waits.
    func testAnIdleConnectionStaysOnItsLoopWhoeverTakesIt() throws {
        let pool = ConnectionPool(limit: 2)
        let (key, home, other) = (self.key, self.home, self.other)
        XCTAssertNil(pool.preferredLoop(for: key))
        XCTAssertEqual(ask(pool, "a", on: home), "queued")
        XCTAssertTrue(waitUntil(timeout: 10) { self.served.count == 1 })
        let a = try connection(of: "a")
        onLoop(home) { pool.release(a, reusable: true) }
        XCTAssertEqual(pool.idleCount, 1)
        XCTAssertTrue(pool.preferredLoop(for: key) === home)
        XCTAssertEqual(onLoop(home) { home.registeredCount }, 1, "parked and watched on its loop")
        XCTAssertEqual(ask(pool, "b", on: other), "elsewhere", "taken from another loop")
        XCTAssertEqual(pool.idleCount, 0)
        XCTAssertEqual(onLoop(home) { home.registeredCount }, 1, "still registered on its own loop")
        XCTAssertEqual(onLoop(other) { other.registeredCount }, 0, "and nowhere else")
        onLoop(home) { pool.release(a, reusable: true) }
        XCTAssertTrue(pool.preferredLoop(for: key) === home)
        XCTAssertEqual(ask(pool, "c", on: home), "here", "taken where it waits")
        onLoop(home) { pool.release(a, reusable: true) }
        pool.closeIdleConnections()
        XCTAssertEqual(onLoop(home) { home.registeredCount }, 0, "the pool's close stopped the watch")
        XCTAssertEqual(a.socket.descriptor, -1, "and closed it")
        XCTAssertEqual(pool.openCount(key), 0)
    }

    /// A connection idle for the pool's idle timeout is closed and its slot freed.
    func testAConnectionIdleTooLongIsClosed() throws {
        let pool = ConnectionPool(limit: 1, idleTimeout: .milliseconds(100))
        let (key, home) = (self.key, self.home)
        XCTAssertEqual(ask(pool, "a", on: home), "queued")
        XCTAssertTrue(waitUntil(timeout: 10) { self.served.count == 1 })
        let a = try connection(of: "a")
        onLoop(home) { pool.release(a, reusable: true) }
        XCTAssertEqual(pool.idleCount, 1)
        XCTAssertTrue(waitUntil(timeout: 10) { pool.idleCount == 0 }, "still pooled after its idle timeout")
        XCTAssertEqual(pool.openCount(key), 0)
        XCTAssertEqual(onLoop(home) { home.registeredCount }, 0)
        XCTAssertEqual(a.socket.descriptor, -1)
    }

    /// A waiter that leaves the queue is not served; the next one is.
    func testACancelledWaiterIsSkipped() throws {
        let pool = ConnectionPool(limit: 1)
        let (key, home, served) = (self.key, self.home, self.served)
        XCTAssertEqual(ask(pool, "holder", on: home), "queued")
        XCTAssertTrue(waitUntil(timeout: 10) { self.served.count == 1 })
        let leaving = ConnectionPool.Waiter(id: ObjectIdentifier(self), loop: home) { _ in served.append("left, yet served") }
        XCTAssertEqual(onLoop(home) { pool.acquire(key, waiter: leaving) == nil }, true)
        XCTAssertEqual(ask(pool, "next", on: home), "queued")
        XCTAssertTrue(pool.cancelWaiting(key, id: ObjectIdentifier(self)))
        XCTAssertFalse(pool.cancelWaiting(key, id: ObjectIdentifier(self)), "gone already")
        let holder = try connection(of: "holder")
        onLoop(home) { pool.release(holder, reusable: true) }
        onLoop(home) {}
        XCTAssertEqual(served.values, ["holder@home got connected", "next@home got connection"])
        let next = try connection(of: "next")
        onLoop(home) { pool.release(next, reusable: false) }
    }
}
