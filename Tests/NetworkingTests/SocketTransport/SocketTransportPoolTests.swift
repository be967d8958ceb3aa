import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import Synchronization
import TestSupport
import XCTest

/// Keep-alive reuse, the per-host limit, stale kept-alive connections and descriptor hygiene.
final class SocketTransportPoolTests: SocketTransportTestCase {
    override var serverConfiguration: FeedServer.Configuration {
        FeedServer.Configuration(maxConnections: 64, idleTimeout: .milliseconds(200))
    }

    private static let keepAliveOK = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)

    func testSequentialRequestsReuseOneConnection() throws {
        // A server with its default idle timeout: this class's 200 ms one closes the connection
        // between two requests when the thread sanitizer and a loaded machine slow them.
        server.stop()
        server = try FeedServer(configuration: .init(maxConnections: 64))
        for _ in 0..<5 { XCTAssertEqual(try get("echo").get().statusCode, 200) }
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(transport.idleConnectionCount, 1)
    }

    func testAServerThatClosedAnIdleConnectionGetsAFreshOne() throws {
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the server closes the idle connection")
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertEqual(server.connectionCount, 2)
        XCTAssertEqual(server.requestCount(path: "/echo"), 2)
    }

    /// An idle pooled connection stays watched by its loop: when the server closes it, the pool
    /// lets go of it at once, before any request would have found it closed.
    func testAnIdleConnectionTheServerClosesLeavesThePoolWithoutARequest() throws {
        XCTAssertEqual(try get("echo").get().statusCode, 200)
        XCTAssertEqual(transport.idleConnectionCount, 1)
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the server closes the idle connection")
        XCTAssertTrue(waitUntil(timeout: 20) { self.transport.idleConnectionCount == 0 }, "the pool dropped it")
        XCTAssertEqual(server.requestCount(path: "/echo"), 1)
    }

    /// The server reads the second request on a kept-alive connection and closes without answering.
    func testIdempotentRequestIsRetriedOnceOnAFreshConnection() throws {
        let scripted = try ScriptedHTTPServer { _, number, _ in number == 1 ? .respond(Self.keepAliveOK) : .close }
        defer { scripted.stop() }
        XCTAssertEqual(try send(URLRequest(url: scripted.url("/a"))).1.get().data, Data("ok".utf8))
        XCTAssertEqual(try send(URLRequest(url: scripted.url("/b"))).1.get().data, Data("ok".utf8))
        XCTAssertEqual(scripted.connectionCount, 2)
        XCTAssertEqual(scripted.requests.map(\.head.path), ["/a", "/b", "/b"])
    }

    /// A released connection goes straight to the request waiting for it, which writes at once
    /// without polling it for a close (its answer was read a moment ago). Here the server closed
    /// it right after a keep-alive answer: the waiting GET goes again on a fresh connection.
    func testAGetHandedAConnectionTheServerClosedIsSentAgainOnAFreshOne() throws {
        let scripted = try ScriptedHTTPServer { _, _, head in
            // The first answer comes late, so the second request is waiting when it ends.
            if head.path == "/a" { Thread.sleep(forTimeInterval: 0.3) }
            return .respondAndClose(Self.keepAliveOK)
        }
        defer { scripted.stop() }
        transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: 1, idleTimeout: .seconds(5)))
        let first = Outcome(), second = Outcome()
        _ = transport.send(URLRequest(url: scripted.url("/a")), progress: nil, completion: first.record)
        // Requests start on their loops: /b is sent once /a holds the only connection.
        XCTAssertTrue(waitUntil(timeout: 10) { scripted.requests.count == 1 }, "/a reached the server")
        _ = transport.send(URLRequest(url: scripted.url("/b")), progress: nil, completion: second.record)
        for outcome in [first, second] {
            XCTAssertEqual(outcome.done.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(try outcome.first?.get().data, Data("ok".utf8))
            XCTAssertEqual(outcome.count, 1)
        }
        XCTAssertEqual(scripted.connectionCount, 2, "the closed connection was handed over, then replaced")
        XCTAssertEqual(scripted.requests.map(\.head.path).last, "/b")
    }

    func testRetryHappensOnlyOnce() throws {
        let scripted = try ScriptedHTTPServer { connection, number, _ in
            connection == 1 && number == 1 ? .respond(Self.keepAliveOK) : .close
        }
        defer { scripted.stop() }
        XCTAssertEqual(try send(URLRequest(url: scripted.url("/a"))).1.get().statusCode, 200)
        let error = try failure(send(URLRequest(url: scripted.url("/b"))).1)
        XCTAssertEqual(error.urlError?.code, .networkConnectionLost, "\(error)")
        XCTAssertEqual(scripted.requests.count, 3, "the first try and one retry")
    }

    func testNonIdempotentRequestIsNotRetried() throws {
        let scripted = try ScriptedHTTPServer { _, number, _ in number == 1 ? .respond(Self.keepAliveOK) : .close }
        defer { scripted.stop() }
        XCTAssertEqual(try send(URLRequest(url: scripted.url("/a"))).1.get().statusCode, 200)
        var post = URLRequest(url: scripted.url("/b"))
        post.httpMethod = "POST"
        post.httpBody = Data("once".utf8)
        let error = try failure(send(post).1)
        XCTAssertEqual(error.urlError?.code, .networkConnectionLost, "\(error)")
        XCTAssertEqual(scripted.connectionCount, 1)
        XCTAssertEqual(scripted.requests.count, 2)
    }

    /// A request that asks to close (`Connection: close`, in any case, among other tokens) leaves
    /// its connection out of the pool even though the server keeps it open.
    func testConnectionCloseFromTheCallerIsHonoured() throws {
        let scripted = try ScriptedHTTPServer { _, _, _ in .respond(Self.keepAliveOK) }
        defer { scripted.stop() }
        var closing = URLRequest(url: scripted.url("/a"))
        closing.setValue("keep-alive, Close", forHTTPHeaderField: "Connection")
        XCTAssertEqual(try send(closing).1.get().statusCode, 200)
        XCTAssertEqual(transport.idleConnectionCount, 0, "not pooled")
        XCTAssertEqual(try send(URLRequest(url: scripted.url("/b"))).1.get().statusCode, 200)
        XCTAssertEqual(transport.idleConnectionCount, 1, "a request that does not ask to close is pooled")
        XCTAssertEqual(try send(URLRequest(url: scripted.url("/c"))).1.get().statusCode, 200)
        XCTAssertEqual(scripted.connectionCount, 2, "the second and third requests share a connection")
        XCTAssertEqual(scripted.requests.first?.head.headers["Connection"], "keep-alive, Close", "sent as given")
    }

    func testConnectionCloseFromTheServerIsHonoured() throws {
        let scripted = try ScriptedHTTPServer { _, _, _ in
            .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8))
        }
        defer { scripted.stop() }
        for _ in 0..<3 { XCTAssertEqual(try send(URLRequest(url: scripted.url("/"))).1.get().statusCode, 200) }
        XCTAssertEqual(scripted.connectionCount, 3)
        XCTAssertEqual(transport.idleConnectionCount, 0)
    }

    func testAThousandRequestsShareEightConnections() throws {
        let total = 1_000
        let transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: 8, idleTimeout: .seconds(10)))
        defer { transport.close() }
        server.stop()
        server = try FeedServer(configuration: .init(maxConnections: 64))
        let statuses = Lock<[Int]>([])
        let group = DispatchGroup()
        for index in 0..<total {
            group.enter()
            _ = transport.send(request("echo?i=\(index)"), progress: nil) { result in
                statuses.withLock { $0.append((try? result.get().statusCode) ?? -1) }
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        let all = statuses.withLock { $0 }
        XCTAssertEqual(all.count, total)
        XCTAssertEqual(all.filter { $0 == 200 }.count, total)
        XCTAssertLessThanOrEqual(server.connectionCount, 8)
        XCTAssertGreaterThanOrEqual(server.connectionCount, 1)
        XCTAssertEqual(server.requestCount(path: "/echo"), total)
        XCTAssertLessThanOrEqual(transport.idleConnectionCount, 8)
    }

    func testNoDescriptorLeaksOnceThePoolIsClosed() throws {
        let before = openDescriptorCount()
        for path in ["echo", "chunked", "cut-headers", "garbage", "half", "drop", "reset", "wrong-length", "status/500", "bytes/70000"] {
            _ = try get(path)
        }
        let refused = try LoopbackListener.refusedPort()
        _ = try send(URLRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:\(refused)/"))))
        let cancelled = transport.send(request("drip?interval=50&count=100"), progress: nil) { _ in }
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.requestCount(path: "/drip") == 1 })
        cancelled.cancel()
        transport.close()
        XCTAssertEqual(transport.idleConnectionCount, 0)
        XCTAssertTrue(waitUntil(timeout: 20) { openDescriptorCount() <= before },
                      "descriptors: \(before) before, \(openDescriptorCount()) after")
    }
}
