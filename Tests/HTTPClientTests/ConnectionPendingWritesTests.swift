import EventLoopIO
@testable import HTTPClient
import Locking
import TestSupport
import XCTest

/// A connection's bytes for the socket survive a partial write, while it waits in the pool too:
/// its parked watcher writes the rest once the peer reads. Real sockets on 127.0.0.1, a peer
/// that stops reading until the test reads.
final class ConnectionPendingWritesTests: XCTestCase {
    private var loop: EventLoop!
    private var listener: TCPSocket?
    private var peer: TCPSocket?

    override func setUpWithError() throws {
        loop = try EventLoop(label: "ConnectionPendingWritesTests")
        listener = try TCPSocket.listen()
    }

    override func tearDown() {
        let done = DispatchSemaphore(value: 0)
        loop.execute { done.signal() }
        _ = done.wait(timeout: .now() + 10)
        peer?.close()
        listener?.close()
        loop.stop()
    }

    /// Runs `body` on the loop's thread and waits for it.
    private func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        let result = Lock<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            result.withLock { $0 = body() }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        return result.withLock { $0 }
    }

    /// A connection to a peer that reads nothing yet.
    private func connect(_ pool: ConnectionPool) throws -> (Connection, ConnectionPoolKey) {
        let listener = try XCTUnwrap(listener)
        let key = ConnectionPoolKey(host: "127.0.0.1", port: try listener.localPort())
        let opened = Lock<Connection?>(nil)
        let waiter = ConnectionPool.Waiter(id: ObjectIdentifier(self), loop: loop) { lease in opened.withLock { $0 = lease.connection } }
        _ = onLoop { pool.acquire(key, waiter: waiter) == nil }
        XCTAssertTrue(waitUntil(timeout: 10) { opened.withLock { $0 } != nil }, "the pool opened a connection")
        peer = try listener.accept(timeout: .seconds(10))
        return (try XCTUnwrap(opened.withLock { $0 }), key)
    }

    /// Reads from the peer until `count` bytes arrived (bounded).
    private func readAll(_ count: Int) throws -> [UInt8] {
        let peer = try XCTUnwrap(peer)
        var received: [UInt8] = []
        while received.count < count {
            let chunk = try peer.read(timeout: .seconds(10))
            if chunk.isEmpty { break }
            received += chunk
        }
        return received
    }

    func testBytesTheSocketDidNotTakeAreWrittenByTheParkedWatcherOnceThePeerReads() throws {
        let pool = ConnectionPool(limit: 1)
        let (connection, _) = try connect(pool)
        // More than the socket's buffers hold while the peer reads nothing: a partial write.
        let bytes = (0..<8_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertEqual(onLoop { connection.write(bytes) }, .wouldBlock, "the socket took only part")
        // Parked with bytes pending: its watcher waits for room to write.
        _ = onLoop { pool.release(connection, reusable: true) }
        XCTAssertEqual(pool.idleCount, 1)
        let received = try readAll(bytes.count)
        XCTAssertEqual(received.count, bytes.count, "nothing was lost")
        XCTAssertTrue(received == bytes, "in order")
        XCTAssertEqual(pool.idleCount, 1, "still pooled")
        XCTAssertEqual(onLoop { connection.flush() }, .done, "nothing left pending")
        pool.closeIdleConnections()
        XCTAssertTrue(waitUntil(timeout: 10) { connection.socket.descriptor == -1 })
    }

    /// Bytes left pending when a request takes the connection go out before its own.
    func testARequestTakingTheConnectionWritesItsPendingBytesFirst() throws {
        let pool = ConnectionPool(limit: 1)
        let (connection, _) = try connect(pool)
        let bytes = [UInt8](repeating: 7, count: 8_000_000)
        XCTAssertEqual(onLoop { connection.write(bytes) }, .wouldBlock)
        let pending = onLoop { connection.takePendingWrites().count } ?? 0
        XCTAssertGreaterThan(pending, 0, "the rest is handed to the request")
        XCTAssertLessThan(pending, bytes.count)
        XCTAssertEqual(onLoop { connection.flush() }, .done, "and no longer the connection's")
        _ = onLoop { pool.release(connection, reusable: false) }
        XCTAssertEqual(connection.socket.descriptor, -1)
    }
}
