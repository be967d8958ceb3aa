import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// Cancelling closes the connection (it never returns to the pool half-read) and reports nothing.
final class SocketTransportCancellationTests: SocketTransportTestCase {
    func testCancellingMidBodyClosesTheConnectionAndReportsNothing() throws {
        let outcome = Outcome()
        let cancellable = transport.send(request("drip?interval=50&count=200"),
                                         progress: { value in outcome.progress.withLock { $0.append(value) } },
                                         completion: outcome.record)
        XCTAssertTrue(waitUntil(timeout: 20) { outcome.progress.withLock { $0.count } >= 2 }, "body bytes arrive")
        XCTAssertFalse(cancellable.isCancelled)
        cancellable.cancel()
        XCTAssertTrue(cancellable.isCancelled)
        let progressAtCancel = outcome.progress.withLock { $0.count }
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the server sees the connection closed")
        // Closed, the connection brings its loop no more bytes, and the drain follows the
        // teardown that closed it: anything reported after cancel has been reported.
        drainSharedLoops()
        XCTAssertEqual(outcome.count, 0, "nothing is reported after cancel")
        XCTAssertLessThanOrEqual(outcome.progress.withLock { $0.count }, progressAtCancel + 1)
        XCTAssertEqual(transport.idleConnectionCount, 0)
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertEqual(server.connectionCount, 2, "the next request needed a new connection")
    }

    func testCancellingWhileWaitingForTheHeadReportsNothing() throws {
        let outcome = Outcome()
        let cancellable = transport.send(request("hang"), progress: nil, completion: outcome.record)
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/hang") == 1 })
        cancellable.cancel()
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 })
        // The drain follows the teardown that closed the connection (see above).
        drainSharedLoops()
        XCTAssertEqual(outcome.count, 0, "nothing is reported after cancel")
    }

    func testCancellingARequestWaitingForAPooledConnectionFreesItsTurn() throws {
        transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(5)))
        let blocker = transport.send(request("hang"), progress: nil) { _ in }
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/hang") == 1 })
        let waiting = Outcome()
        let queued = transport.send(request("echo?queued"), progress: nil, completion: waiting.record)
        queued.cancel()
        blocker.cancel()
        XCTAssertEqual(try get("echo").get().statusCode, 200, "the slot came back")
        // Ahead of the later request in the pool, the cancelled one would have had the slot and
        // been answered first; cancel() queued its teardown before the drain.
        drainSharedLoops()
        XCTAssertEqual(waiting.count, 0, "nothing is reported after cancel")
        XCTAssertEqual(server.requestCount(path: "/echo"), 1, "the cancelled request was never sent")
    }

    func testDisposingAProviderRequestCancelsTheTransportCall() throws {
        let provider = NetworkProvider<ServerRoute>(transport: transport)
        let events = Recorder<String>()
        let subscription = provider.rx.request(route("drip")).subscribe { _ in events.append("answered") }
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/drip") == 1 })
        subscription.dispose()
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 })
        // The drain follows the teardown that closed the connection, so an answer the transport
        // reported by then is on the provider's serial delivery queue ahead of the later one's.
        drainSharedLoops()
        let later = Recorder<Int>()
        provider.request(route("echo")) { later.append((try? $0.get().statusCode) ?? 0) }
        XCTAssertTrue(waitUntil(timeout: 20) { later.count == 1 })
        XCTAssertEqual(later.values, [200])
        XCTAssertEqual(events.count, 0)
    }
}
