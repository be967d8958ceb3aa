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
    private var owners: [Owner] = []

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

    /// The owner of a leased connection's channel in place of a request: writes the rest of
    /// its queue as the socket takes it.
    private final class Owner: ChannelHandler, @unchecked Sendable {
        // @unchecked: touched only on the loop's thread.
        let channel: Channel
        init(_ channel: Channel) { self.channel = channel }
        func socketReadable() {}
        func socketWritable() { _ = channel.flush() }
        func channelDeadlinePassed() {}
    }

    /// A connection to a peer that reads nothing yet, leased to an `Owner`.
    private func connect(_ pool: ConnectionPool) throws -> (Connection, ConnectionPoolKey) {
        let listener = try XCTUnwrap(listener)
        let key = ConnectionPoolKey(host: "127.0.0.1", port: try listener.localPort())
        let opened = Lock<Connection?>(nil)
        let waiter = ConnectionPool.Waiter(id: ObjectIdentifier(self), loop: loop) { lease in opened.withLock { $0 = lease.connection } }
        _ = onLoop { pool.acquire(key, waiter: waiter) == nil }
        XCTAssertTrue(waitUntil(timeout: 10) { opened.withLock { $0 } != nil }, "the pool opened a connection")
        peer = try listener.accept(timeout: .seconds(10))
        let connection = try XCTUnwrap(opened.withLock { $0 })
        owners.append(Owner(connection.channel))
        _ = onLoop { [owner = owners.last!] in connection.channel.handOver(to: owner) }
        return (connection, key)
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
        let bytes = BulkBytes.make(8_000_000)
        XCTAssertEqual(onLoop { try? connection.write(bytes) }, .wouldBlock, "the socket took only part")
        // Parked with bytes pending: its watcher waits for room to write.
        _ = onLoop { pool.release(connection, reusable: true) }
        XCTAssertEqual(pool.idleCount, 1)
        let received = try readAll(bytes.count)
        XCTAssertEqual(received.count, bytes.count, "nothing was lost")
        XCTAssertTrue(BulkBytes.equal(received, bytes), "in order")
        XCTAssertEqual(pool.idleCount, 1, "still pooled")
        XCTAssertEqual(onLoop { connection.channel.flush() }, .done, "nothing left pending")
        pool.closeIdleConnections()
        XCTAssertTrue(waitUntil(timeout: 10) { connection.socket.descriptor == -1 })
    }

    /// Bytes left pending when a request takes the connection go out before its own: they stay
    /// on the connection's channel, whose one queue the request's bytes join.
    func testARequestTakingTheConnectionWritesItsPendingBytesFirst() throws {
        let pool = ConnectionPool(limit: 1)
        let (connection, key) = try connect(pool)
        let pending = [UInt8](repeating: 7, count: 8_000_000)
        XCTAssertEqual(onLoop { try? connection.write(pending) }, .wouldBlock)
        XCTAssertEqual(onLoop { connection.channel.hasPendingWrites }, true, "the rest stays queued")
        // Parked with the rest queued, then taken again by the next request.
        _ = onLoop { pool.release(connection, reusable: true) }
        let taken = Lock<Connection?>(nil)
        let waiter = ConnectionPool.Waiter(id: ObjectIdentifier(self), loop: loop) { lease in taken.withLock { $0 = lease.connection } }
        let lease = onLoop { () -> Connection? in
            guard case .here(let parked)? = pool.acquire(key, waiter: waiter) else { return nil }
            parked.takenHere()
            return parked.connection
        }
        XCTAssertTrue(lease.flatMap { $0 } === connection, "the parked connection is leased again")
        owners.append(Owner(connection.channel))
        _ = onLoop { [owner = owners.last!] in connection.channel.handOver(to: owner) }
        let request = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        XCTAssertNotEqual(onLoop { try? connection.write(request) }, .done, "queued behind the pending bytes")
        let received = try readAll(pending.count + request.count)
        XCTAssertEqual(received.count, pending.count + request.count, "nothing was lost")
        XCTAssertTrue(BulkBytes.equal(received[..<pending.count], pending), "the pending bytes first")
        XCTAssertEqual(Array(received[pending.count...]), request, "then the request's")
        _ = onLoop { pool.release(connection, reusable: false) }
        XCTAssertEqual(connection.socket.descriptor, -1)
    }
}
