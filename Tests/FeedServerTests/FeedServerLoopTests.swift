import EventLoopIO
import FeedServer
import Foundation
import TestSupport
import XCTest

/// The server on event loops: many connections without a thread each, and a group of the
/// caller's own.
final class FeedServerLoopTests: FeedServerTestCase {
    func testThreeHundredKeptAliveClientsAreServedWithoutAThreadEach() throws {
        guard let threadsBefore = ProcessThreads.count() else { throw XCTSkip("no /proc/self/task here") }
        let clientCount = 300
        let server = try makeServer(.init(maxConnections: 400))
        var clients: [RawHTTPClient] = []
        for index in 0..<clientCount {
            let client = try connect(server)
            try client.request("GET", "/echo?client=\(index)&round=1")
            clients.append(client)
        }
        for (index, client) in clients.enumerated() {
            XCTAssertEqual(try json(try client.response())["query"] as? String, "client=\(index)&round=1")
        }
        XCTAssertEqual(server.openConnectionCount, clientCount)
        let threadsWhileOpen = try XCTUnwrap(ProcessThreads.count())
        // Three more rounds on the same kept-alive connections.
        for round in 2...4 {
            for (index, client) in clients.enumerated() {
                try client.request("GET", "/echo?client=\(index)&round=\(round)")
            }
            for (index, client) in clients.enumerated() {
                XCTAssertEqual(try json(try client.response())["query"] as? String, "client=\(index)&round=\(round)")
            }
        }
        XCTAssertEqual(server.connectionCount, clientCount, "every request rode its client's first connection")
        XCTAssertEqual(server.requestCount(path: "/echo"), 4 * clientCount)
        // The shared loops ran before the count: the server adds no thread (4 to spare for the
        // dispatch pool's workers), where a thread per connection would add 300.
        XCTAssertLessThanOrEqual(threadsWhileOpen, threadsBefore + 4,
                                 "\(threadsBefore) threads before, \(threadsWhileOpen) with \(clientCount) connections open")
        XCTAssertLessThanOrEqual(try XCTUnwrap(ProcessThreads.count()), threadsBefore + 4)
    }

    func testAServerRunsOnTheGroupItIsGiven() throws {
        let group = try EventLoopGroup(count: 1, label: "FeedServerLoopTests")
        let server = try makeServer(.init(eventLoopGroup: group))
        let client = try connect(server)
        for index in 0..<3 {
            try client.request("GET", "/echo?n=\(index)")
            XCTAssertEqual(try client.response().head.status, 200)
        }
        // The loop serving the connection is the given group's: a task queued there after the
        // answers finds the connection registered on it.
        let registered = Recorder<Int>()
        group.loops[0].execute { registered.append(group.loops[0].registeredCount) }
        XCTAssertTrue(waitUntil(timeout: 5) { registered.count == 1 })
        XCTAssertEqual(registered.values, [2], "the listener and the connection")
        server.stop()
        XCTAssertEqual(server.openConnectionCount, 0)
    }

    func testStopOnTheServersOwnLoopClosesEverythingThereWithoutWaitingForItself() throws {
        let group = try EventLoopGroup(count: 1, label: "FeedServerLoopTests")
        let loop = group.loops[0]
        let server = try makeServer(.init(eventLoopGroup: group))
        let client = try connect(server)
        try client.request("GET", "/hang")
        XCTAssertTrue(waitUntil(timeout: 5) { server.requestCount(path: "/hang") == 1 })
        let openAfterStop = Recorder<Int>()
        loop.execute {
            server.stop()
            server.stop()
            openAfterStop.append(server.openConnectionCount)
        }
        // Had stop() handed the closes to its own loop and waited for them, it would have given
        // up after 15 seconds with the connection still open.
        XCTAssertTrue(waitUntil(timeout: 10) { openAfterStop.count == 1 }, "stop() returned on the loop")
        XCTAssertEqual(openAfterStop.values, [0])
        XCTAssertEqual(try client.readUntilClose(), [])
        XCTAssertThrowsError(try RawHTTPClient(port: server.port))
    }

    func testStopOnAnotherLoopReturnsWithoutWaitingForTheServersLoop() throws {
        let group = try EventLoopGroup(count: 1, label: "FeedServerLoopTests")
        let other = try EventLoopGroup(count: 1, label: "FeedServerLoopTests.other")
        let server = try makeServer(.init(eventLoopGroup: group))
        let client = try connect(server)
        try client.request("GET", "/hang")
        XCTAssertTrue(waitUntil(timeout: 5) { server.requestCount(path: "/hang") == 1 })
        // The server's loop is busy until the test lets it go: its listener and connection
        // cannot close before then.
        let gate = DispatchSemaphore(value: 0)
        group.loops[0].execute { gate.wait() }
        let openAfterStop = Recorder<Int>()
        other.loops[0].execute {
            server.stop()
            openAfterStop.append(server.openConnectionCount)
        }
        // Had stop() waited on the other loop for the closes, it would have given up only after
        // 15 seconds.
        let returned = waitUntil(timeout: 5) { openAfterStop.count == 1 }
        gate.signal()
        XCTAssertTrue(returned, "stop() on a loop thread waited for the server's loop")
        XCTAssertEqual(openAfterStop.values, [1], "the connection closes on its own loop, after stop() returned")
        XCTAssertTrue(waitUntil(timeout: 5) { server.openConnectionCount == 0 })
        XCTAssertEqual(try client.readUntilClose(), [])
        XCTAssertTrue(waitUntil(timeout: 5) { (try? RawHTTPClient(port: server.port)) == nil }, "the listener closed")
    }

    func testAServerMadeOnItsGroupsLoopListensFromThere() throws {
        let group = try EventLoopGroup(count: 1, label: "FeedServerLoopTests")
        let loop = group.loops[0]
        let made = Recorder<FeedServer>()
        let refused = Recorder<SocketError>()
        // Made on the loop it listens on: waiting for that loop to make the socket would wait forever.
        loop.execute {
            guard let server = try? FeedServer(configuration: .init(eventLoopGroup: group)) else { return }
            made.append(server)
            do {
                _ = try FeedServer(configuration: .init(port: server.port, eventLoopGroup: group))
            } catch let error as SocketError {
                refused.append(error)
            } catch {}
        }
        XCTAssertTrue(waitUntil(timeout: 5) { made.count == 1 && refused.count == 1 })
        let server = try XCTUnwrap(made.values.first)
        defer { server.stop() }
        XCTAssertEqual(refused.values, [.system(operation: .bind, errno: EADDRINUSE)], "the bind's error reaches the caller on the loop")
        let client = try connect(server)
        try client.request("GET", "/echo?n=1")
        XCTAssertEqual(try client.response().head.status, 200)
    }
}
