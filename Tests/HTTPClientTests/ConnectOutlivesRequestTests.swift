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
    var group: EventLoopGroup!
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
    func drainLoop() {
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

/// The same over TLS: the pool opens the TCP connection and runs its handshake (the handshake
/// belongs to the connection, not to the request that asked), so a request cancelled before or
/// during the handshake leaves a secured connection to the next request.
final class SecureConnectOutlivesRequestTests: ConnectOutlivesRequestTests {
    override class var secure: Bool { true }

    func testAConnectionIsSecuredBeforeItIsParkedAndServesTheNextRequestOnThatHandshake() throws {
        let answers = Recorder<String>()
        startAndCancelFirst(answers)
        gate.signal()
        XCTAssertTrue(waitUntil(timeout: 10) { self.slowClient.idleConnectionCount == 1 }, "parked once secured")
        // The server counts the handshake once it reads the client's last flight.
        XCTAssertTrue(waitUntil(timeout: 10) { self.server.tlsHandshakeCount == 1 }, "its opener ran the handshake, with no request waiting")
        slowClient.execute(HTTPClientRequest(url: slowURL)) { result in answers.append("next \((try? result.get().status) ?? 0)") }
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count > 0 })
        XCTAssertEqual(answers.values, ["next 200"])
        XCTAssertEqual(server.tlsHandshakeCount, 1, "the next request used that handshake")
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(lookups.count, 1)
    }

    func testARequestCancelledMidHandshakeLeavesTheConnectionToTheNextRequest() throws {
        // The client's ClientHello reaches a relay that holds it, and the server's answer, until
        // the test releases them: the handshake is under way when the first request is cancelled.
        let relay = try HandshakeRelay(to: server.port)
        defer { relay.release() }
        let relayPort = relay.port
        let resolver = HostResolver(literal: { _, _ in nil }, lookUp: { _, _ throws(SocketError) in
            try SocketAddress.resolve(host: "127.0.0.1", port: relayPort, numericOnly: true)
        })
        var configuration = HTTPClient.Configuration(connectTimeout: .seconds(10), idleTimeout: .seconds(5))
        configuration.tls = TLSFixtures.client
        let client = HTTPClient(configuration: configuration, loops: group, resolver: resolver)
        defer { client.closeIdleConnections() }
        let url = try XCTUnwrap(URL(string: "https://localhost:\(relay.port)/echo"))
        let answers = Recorder<String>()
        let first = client.execute(HTTPClientRequest(url: url)) { _ in answers.append("first answered") }
        XCTAssertTrue(waitUntil(timeout: 10) { relay.clientHellos.count == 1 }, "the handshake started")
        first.cancel()
        drainLoop()
        client.execute(HTTPClientRequest(url: url)) { result in answers.append("second \((try? result.get().status) ?? 0)") }
        drainLoop()
        relay.release()
        XCTAssertTrue(waitUntil(timeout: 10) { answers.count > 0 })
        XCTAssertEqual(answers.values, ["second 200"], "the second request got the connection the first one's handshake secured")
        XCTAssertEqual(relay.accepted.count, 1, "one connection for both requests")
        XCTAssertEqual(server.tlsHandshakeCount, 1)
        XCTAssertEqual(server.requestCount(path: "/echo"), 1)
    }
}

/// A TCP relay to a server that holds the client's first bytes, and so the handshake, until
/// `release()`; then it carries bytes both ways until either side ends. One connection, on
/// threads of its own, every wait bounded.
private final class HandshakeRelay: @unchecked Sendable {
    // @unchecked: `listener` and `port` are set once; the recorders and the semaphore are thread-safe.
    let port: UInt16
    let accepted = Recorder<Int>()
    let clientHellos = Recorder<Int>()
    private let listener: TCPSocket
    private let serverPort: UInt16
    private let gate = DispatchSemaphore(value: 0)

    init(to serverPort: UInt16) throws {
        listener = try TCPSocket.listen()
        port = try listener.localPort()
        self.serverPort = serverPort
        Thread.detachNewThread { [self] in run() }
    }

    /// Lets the held bytes through (any number of times).
    func release() {
        gate.signal()
    }

    private func run() {
        defer { listener.close() }
        guard let client = try? listener.accept(timeout: .seconds(10)) else { return }
        accepted.append(1)
        guard let hello = try? client.read(timeout: .seconds(10)), !hello.isEmpty else { return client.close() }
        clientHellos.append(hello.count)
        guard gate.wait(timeout: .now() + 10) == .success,
              let server = try? TCPSocket.connect(host: "127.0.0.1", port: serverPort, timeout: .seconds(5)),
              (try? server.write(hello, timeout: .seconds(5))) != nil else { return client.close() }
        let both = DispatchGroup()
        carry(from: server, to: client, group: both)
        carry(from: client, to: server, group: both)
        _ = both.wait(timeout: .now() + 30)
        client.close()
        server.close()
    }

    /// Copies `from`'s bytes to `to` until `from` ends (or nothing comes for 10 s), then ends `to`.
    private func carry(from: TCPSocket, to: TCPSocket, group: DispatchGroup) {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            while let bytes = try? from.read(timeout: .seconds(10)), !bytes.isEmpty {
                guard (try? to.write(bytes, timeout: .seconds(5))) != nil else { return }
            }
            to.shutdownWrite()
        }
    }
}
