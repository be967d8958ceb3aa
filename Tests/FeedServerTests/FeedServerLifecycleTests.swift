import FeedServer
import Foundation
import EventLoopIO
import TestSupport
import Synchronization
import XCTest

final class FeedServerLifecycleTests: FeedServerTestCase {
    func testStartsOnAKernelPickedPort() throws {
        let server = try makeServer()
        XCTAssertNotEqual(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)/")
        XCTAssertEqual(try get(server, "/status/200").head.status, 200)
    }

    func testKeepAliveServesTwoRequestsOnOneConnection() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.request("GET", "/echo?n=1")
        XCTAssertEqual(try client.response().head.status, 200)
        try client.request("GET", "/echo?n=2")
        let second = try client.response()
        XCTAssertEqual(try json(second)["query"] as? String, "n=2")
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(server.requestCount, 2)
        XCTAssertEqual(server.requestCount(path: "/echo"), 2)
        XCTAssertEqual(server.requestCount(path: "/other"), 0)
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.send("GET /echo?n=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?n=2 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try json(try client.response())["query"] as? String, "n=1")
        XCTAssertEqual(try json(try client.response())["query"] as? String, "n=2")
    }

    func testConnectionCloseIsHonoured() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.request("GET", "/status/200", headers: ["Connection: close"])
        let response = try client.response()
        XCTAssertEqual(response.head.headers["Connection"], "close")
        XCTAssertEqual(try client.readUntilClose(), [])
    }

    func testGarbageRequestGets400AndClose() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.send("\u{1}\u{2} NOT HTTP AT ALL\r\n\r\n")
        let response = try client.response()
        XCTAssertEqual(response.head.status, 400)
        XCTAssertEqual(try json(response)["code"] as? String, "E400")
        XCTAssertEqual(try client.readUntilClose(), [])
    }

    func testOversizeHeadersGet431() throws {
        let server = try makeServer(.init(maxHeaderBytes: 1_024))
        let response = try get(server, "/echo", headers: ["X-Big: " + String(repeating: "a", count: 2_000)])
        XCTAssertEqual(response.head.status, 431)
        XCTAssertEqual(try json(response)["code"] as? String, "E431")
    }

    func testOversizeBodyGets413() throws {
        let server = try makeServer(.init(maxBodyBytes: 100))
        let client = try connect(server)
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
        let response = try client.response()
        XCTAssertEqual(response.head.status, 413)
        XCTAssertEqual(try json(response)["code"] as? String, "E413")
        XCTAssertEqual(server.requestCount(path: "/echo"), 1)
    }

    func testChunkedRequestBodyOverTheLimitGets413() throws {
        let server = try makeServer(.init(maxBodyBytes: 10))
        let client = try connect(server)
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n")
        XCTAssertEqual(try client.response().head.status, 413)
    }

    func testConnectionsBeyondTheLimitGet503() throws {
        let server = try makeServer(.init(maxConnections: 1))
        let first = try connect(server)
        try first.request("GET", "/status/200")
        XCTAssertEqual(try first.response().head.status, 200)
        let second = try connect(server)
        let refused = try second.readUntilClose()
        XCTAssertTrue(String(decoding: refused, as: UTF8.self).hasPrefix("HTTP/1.1 503"))
        XCTAssertEqual(server.connectionCount, 2)
        XCTAssertEqual(server.openConnectionCount, 1)
    }

    func testStopClosesEveryConnectionAndLeavesNoDescriptor() throws {
        let before = Self.openDescriptorCount()
        let server = try FeedServer()
        let idle = try RawHTTPClient(port: server.port)
        try idle.request("GET", "/status/200")
        XCTAssertEqual(try idle.response().head.status, 200)
        let hanging = try RawHTTPClient(port: server.port)
        try hanging.request("GET", "/hang")
        let delayed = try RawHTTPClient(port: server.port)
        try delayed.request("GET", "/delay/60000")
        let deadline = ContinuousClock.now + .seconds(5)
        while server.requestCount < 3, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(server.openConnectionCount, 3)
        server.stop()
        XCTAssertEqual(server.openConnectionCount, 0)
        XCTAssertEqual(try idle.readUntilClose(), [])
        XCTAssertEqual(try hanging.readUntilClose(), [])
        XCTAssertEqual(try delayed.readUntilClose(), [])
        server.stop()
        XCTAssertThrowsError(try RawHTTPClient(port: server.port))
        for client in [idle, hanging, delayed] { client.close() }
        XCTAssertEqual(Self.openDescriptorCount(), before)
    }

    func testHTTP10KeepAliveIsConfirmed() throws {
        let server = try makeServer()
        let client = try connect(server)
        try client.send("GET /status/200 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(try client.response().head.headers["Connection"], "keep-alive")
        try client.send("GET /status/201 HTTP/1.0\r\n\r\n")
        XCTAssertEqual(try client.response().head.status, 201)
        XCTAssertEqual(try client.readUntilClose(), [])
        XCTAssertEqual(server.connectionCount, 1)
    }

    func testManyRequestsFromParallelClients() throws {
        let server = try makeServer()
        let failures = Atomic<Int>(0)
        let completed = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            do {
                var client = try RawHTTPClient(port: server.port)
                defer { client.close() }
                for index in 0..<125 {
                    let closes = worker.isMultiple(of: 2) && index.isMultiple(of: 5)
                    try client.request("GET", "/echo?w=\(worker)&i=\(index)", headers: closes ? ["Connection: close"] : [])
                    let response = try client.response()
                    guard response.head.status == 200 else { failures.add(1, ordering: .relaxed); continue }
                    completed.add(1, ordering: .relaxed)
                    if closes {
                        client.close()
                        client = try RawHTTPClient(port: server.port)
                    }
                }
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        XCTAssertEqual(failures.load(ordering: .relaxed), 0)
        XCTAssertEqual(completed.load(ordering: .relaxed), 2_000)
        XCTAssertEqual(server.requestCount(path: "/echo"), 2_000)
        let deadline = ContinuousClock.now + .seconds(5)
        while server.connectionCount < 16 + 8 * 25, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(server.connectionCount, 16 + 8 * 25)
    }

    func testStartsOnAGivenPortAndReportsAPortInUse() throws {
        let probe = try TCPSocket.listen()
        let port = try probe.localPort()
        probe.close()
        let server = try makeServer(.init(port: port))
        XCTAssertEqual(server.port, port)
        XCTAssertThrowsError(try makeServer(.init(port: port))) { error in
            XCTAssertEqual(error as? SocketError, .system(operation: .bind, errno: EADDRINUSE))
        }
    }

    func testIdleKeptAliveConnectionIsClosedAfterTheIdleTimeout() throws {
        let server = try makeServer(.init(idleTimeout: .milliseconds(100)))
        let client = try connect(server)
        try client.request("GET", "/status/200")
        XCTAssertEqual(try client.response().head.status, 200)
        XCTAssertEqual(try client.readUntilClose(timeout: .seconds(10)), [])
    }
}
