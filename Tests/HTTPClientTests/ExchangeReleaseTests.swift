import EventLoopIO
import FeedServer
import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// A request's exchange is let go once it has answered, however its connection ended: the
/// connection's `RequestRelay` holds the exchange only while it uses the connection (a relay
/// that kept it would keep every finished request alive as long as its connection). The reused
/// connection's next request reads into, and writes its head from, the buffers the request
/// before it left. Against a `FeedServer` on
/// 127.0.0.1, with a pool and two loops of the test's own.
final class ExchangeReleaseTests: TwoLoopPoolTestCase {
    /// Sends `request` as an exchange on the first loop, waits for its answer and returns it with
    /// a weak reference to the exchange (which the test's own references no longer keep).
    private func send(_ request: HTTPClientRequest, configuration: HTTPClient.Configuration = .init())
        throws -> (Result<HTTPClientResponse, HTTPClientError>, WeakExchange) {
        let answers = Recorder<Result<HTTPClientResponse, HTTPClientError>>()
        let weak = WeakExchange()
        do {
            let exchange = SocketExchange(request: request, target: SocketRequestTarget.read(request.url),
                                          configuration: configuration, pool: pool, loop: group.loops[0], loops: group,
                                          ticket: pool.makeTicket()) { result, _ in answers.append(result) }
            weak.exchange = exchange
            exchange.start()
        }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count == 1 }, "answered")
        return (try XCTUnwrap(answers.values.first), weak)
    }

    func testAnExchangeWhoseConnectionWentBackToThePoolIsLetGo() throws {
        let (first, firstExchange) = try send(HTTPClientRequest(url: url("echo")))
        XCTAssertEqual(try first.get().status, 200)
        XCTAssertTrue(waitUntil(timeout: 10) { self.pool.idleCount == 1 }, "the connection is parked")
        XCTAssertTrue(waitUntil(timeout: 10) { firstExchange.exchange == nil }, "the parked connection does not keep the exchange")

        // The next request takes the same connection over, and is let go in turn.
        let (second, secondExchange) = try send(HTTPClientRequest(url: url("echo")))
        XCTAssertEqual(try second.get().status, 200)
        XCTAssertEqual(server.connectionCount, 1, "the kept-alive connection served both")
        XCTAssertTrue(waitUntil(timeout: 10) { self.pool.idleCount == 1 })
        XCTAssertTrue(waitUntil(timeout: 10) { secondExchange.exchange == nil })
    }

    func testAnExchangeWhoseConnectionClosedIsLetGo() throws {
        var request = HTTPClientRequest(url: url("echo"))
        request.headers["Connection"] = "close"
        let (result, exchange) = try send(request)
        XCTAssertEqual(try result.get().status, 200)
        XCTAssertEqual(pool.idleCount, 0, "the connection closed")
        XCTAssertTrue(waitUntil(timeout: 10) { exchange.exchange == nil })
    }

    func testAnExchangeThatTimedOutOnItsConnectionIsLetGo() throws {
        let (result, exchange) = try send(HTTPClientRequest(url: url("hang"), idleTimeout: .milliseconds(100)))
        guard case .failure(.timedOut(.idle, _, _, _)) = result else { return XCTFail("timed out, got \(result)") }
        XCTAssertTrue(waitUntil(timeout: 10) { exchange.exchange == nil })
    }

    func testTheNextRequestOnAConnectionUsesTheBuffersTheOneBeforeLeft() throws {
        let (first, _) = try send(HTTPClientRequest(url: url("echo")))
        XCTAssertEqual(try first.get().status, 200)
        XCTAssertTrue(waitUntil(timeout: 10) { self.pool.idleCount == 1 })
        let kept = try keptBuffers()
        XCTAssertNotNil(kept.read, "the parked connection keeps the buffer its request read into")
        XCTAssertNotNil(kept.output, "and the one its head was written from")

        let (second, _) = try send(HTTPClientRequest(url: url("echo")))
        XCTAssertEqual(try second.get().status, 200)
        XCTAssertEqual(server.connectionCount, 1, "the kept-alive connection served both")
        XCTAssertTrue(waitUntil(timeout: 10) { self.pool.idleCount == 1 })
        let again = try keptBuffers()
        XCTAssertEqual(again.read, kept.read, "the second request read into the same buffer and left it again")
        XCTAssertEqual(again.output, kept.output, "and wrote its head from the same buffer")
    }

    /// A large body grows the read buffer past what an idle connection keeps: the parked
    /// connection holds none, and the next small answer starts a small one again.
    func testAConnectionWaitingInThePoolKeepsNoLargeBuffer() throws {
        let (large, _) = try send(HTTPClientRequest(url: url("bytes/300000")))
        XCTAssertEqual(try large.get().body.count, 300_000)
        XCTAssertTrue(waitUntil(timeout: 10) { self.pool.idleCount == 1 })
        XCTAssertNil(try keptBuffers().read, "a 64 KiB read buffer is not kept")
        let (small, _) = try send(HTTPClientRequest(url: url("echo")))
        XCTAssertEqual(try small.get().status, 200)
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertTrue(waitUntil(timeout: 10) { self.pool.idleCount == 1 })
        XCTAssertNotNil(try keptBuffers().read, "a small one is")
    }

    /// The addresses of the buffers the pool's one parked connection keeps (nil: none kept),
    /// read on its loop by taking the connection and giving it straight back.
    private func keptBuffers() throws -> (read: Int?, output: Int?) {
        let key = try SocketRequestTarget.read(url("echo")).get().key
        let (pool, loop) = (self.pool!, group.loops[0])
        let addresses = Recorder<[Int?]>()
        loop.execute {
            let waiter = ConnectionPool.Waiter(id: ObjectIdentifier(pool), loop: loop) { _ in }
            guard case .here(let parked)? = pool.acquire(key, waiter: waiter, freshOnly: false) else { return addresses.append([nil, nil]) }
            parked.takenHere()
            let buffers = [parked.connection.readBuffer, parked.connection.outputBuffer]
            pool.release(parked.connection, reusable: true)
            addresses.append(buffers.map { buffer in
                buffer.capacity == 0 ? nil : buffer.withUnsafeBufferPointer { $0.baseAddress.map { Int(bitPattern: $0) } }
            })
        }
        XCTAssertTrue(waitUntil(timeout: 10) { addresses.count == 1 })
        let found = addresses.values.first ?? [nil, nil]
        return (found[0], found[1])
    }
}

/// A weak reference to an exchange, written once by the test.
private final class WeakExchange: @unchecked Sendable {
    // @unchecked: set once before the exchange starts, read by the same test thread.
    weak var exchange: SocketExchange?
}
