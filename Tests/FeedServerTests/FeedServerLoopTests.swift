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
}
