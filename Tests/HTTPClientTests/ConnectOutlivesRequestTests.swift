import EventLoopIO
import FeedServer
import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// The pool opens connections for whoever waits, not for the request that asked: a request
/// cancelled while its connection is being opened (here, while the host name is looked up: the
/// lookup waits for the test) leaves the connect running, and the connection serves the next
/// request, or waits in the pool when none comes. Against a `FeedServer` on 127.0.0.1 (over TLS
/// in `SecureConnectOutlivesRequestTests`).
class ConnectOutlivesRequestTests: HTTPClientTestCase {
    /// Whether the server speaks TLS (the subclass's).
    class var secure: Bool { false }

    let lookups = Recorder<String>()
    let gate = DispatchSemaphore(value: 0)
    private var group: EventLoopGroup!
    var slowClient: HTTPClient!

    override func setUpWithError() throws {
        try super.setUpWithError()
        var configuration = HTTPClient.Configuration(connectTimeout: .seconds(10), idleTimeout: .seconds(5))
        if Self.secure {
            try TLSFixtures.skipUnlessTLSLoads()
            server.stop()
            server = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
            configuration.tls = TLSFixtures.client
        }
        let (lookups, gate, port) = (self.lookups, self.gate, server.port)
        // A name the test resolves, once the gate opens (bounded: it never blocks past 10 s).
        let resolver = HostResolver(
            literal: { _, _ in nil },
            lookUp: { host, _ throws(SocketError) in
                lookups.append(host)
                _ = gate.wait(timeout: .now() + 10)
                return try SocketAddress.resolve(host: "127.0.0.1", port: port, numericOnly: true)
            }
        )
        group = try EventLoopGroup(count: 1, label: "ConnectOutlivesRequestTests")
        slowClient = HTTPClient(configuration: configuration, loops: group, resolver: resolver)
    }

    override func tearDown() {
        slowClient?.closeIdleConnections()
        slowClient = nil
        group = nil
        super.tearDown()
    }

    /// A name the resolver holds: `localhost` over TLS (the name the server's certificate carries).
    var slowURL: URL {
        URL(string: Self.secure ? "https://localhost:\(server.port)/echo" : "http://slow.test:\(server.port)/echo") ?? server.baseURL
    }

    /// Waits until the client's loop has run every task handed to it so far (a request's start).
    private func drainLoop() {
        let ran = DispatchSemaphore(value: 0)
        group.loops[0].execute { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success)
    }

    /// Starts the first request and cancels it while its connection's name is looked up.
    func startAndCancelFirst(_ answers: Recorder<String>) {
        let first = slowClient.execute(HTTPClientRequest(url: slowURL)) { _ in answers.append("first answered") }
        XCTAssertTrue(waitUntil(timeout: 10) { self.lookups.count == 1 }, "the first request's connection is being opened")
        first.cancel()
        drainLoop()
    }

    func testACancelledRequestsConnectServesTheNextRequest() throws {
        let answers = Recorder<String>()
        startAndCancelFirst(answers)
        slowClient.execute(HTTPClientRequest(url: slowURL)) { result in answers.append("second \((try? result.get().status) ?? 0)") }
        drainLoop()
        XCTAssertEqual(lookups.count, 1, "the second request waits for the connection under way")
        gate.signal()
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count > 0 })
        XCTAssertEqual(answers.values, ["second 200"], "the second request got the first one's connection; the first reported nothing")
        XCTAssertEqual(lookups.count, 1, "one connect for both requests")
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(server.requestCount(path: "/echo"), 1)
    }

    func testACancelledRequestsConnectWaitsInThePoolWhenNobodyElseDoes() throws {
        let answers = Recorder<String>()
        startAndCancelFirst(answers)
        gate.signal()
        XCTAssertTrue(waitUntil(timeout: 10) { self.slowClient.idleConnectionCount == 1 }, "the connection opened was parked")
        // The kernel completes the handshake before the server's loop accepts it.
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.connectionCount == 1 })
        XCTAssertEqual(server.requestCount, 0, "nothing was sent on it")
        slowClient.execute(HTTPClientRequest(url: slowURL)) { result in answers.append("next \((try? result.get().status) ?? 0)") }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count > 0 })
        XCTAssertEqual(answers.values, ["next 200"])
        XCTAssertEqual(lookups.count, 1, "the parked connection served the next request")
        XCTAssertEqual(server.connectionCount, 1)
    }
}

/// The same over TLS: the pool opens the TCP connection, the request that gets it runs the
/// handshake; one given back before its handshake is secured by the next request that takes it.
final class SecureConnectOutlivesRequestTests: ConnectOutlivesRequestTests {
    override class var secure: Bool { true }

    func testAConnectionParkedBeforeItsHandshakeIsSecuredByTheRequestThatTakesIt() throws {
        let answers = Recorder<String>()
        startAndCancelFirst(answers)
        gate.signal()
        XCTAssertTrue(waitUntil(timeout: 10) { self.slowClient.idleConnectionCount == 1 }, "parked before any handshake")
        XCTAssertEqual(server.tlsHandshakeCount, 0)
        slowClient.execute(HTTPClientRequest(url: slowURL)) { result in answers.append("next \((try? result.get().status) ?? 0)") }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count > 0 })
        XCTAssertEqual(answers.values, ["next 200"])
        XCTAssertEqual(server.tlsHandshakeCount, 1, "secured once, by the request that took it")
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(lookups.count, 1)
    }
}
