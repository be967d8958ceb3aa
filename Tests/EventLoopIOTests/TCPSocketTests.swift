import EventLoopIO
import TestSupport
import XCTest

final class TCPSocketTests: XCTestCase {
    func testListenOnPortZeroConnectAcceptAndExchangeBytes() throws {
        let listener = try TCPSocket.listen()
        defer { listener.close() }
        let port = try listener.localPort()
        XCTAssertNotEqual(port, 0)
        let client = try TCPSocket.connect(host: "127.0.0.1", port: port, timeout: .seconds(2))
        defer { client.close() }
        let server = try XCTUnwrap(try listener.accept(timeout: .seconds(2)))
        defer { server.close() }
        try client.write(Array("ping".utf8), timeout: .seconds(2))
        XCTAssertEqual(try server.read(timeout: .seconds(2)), Array("ping".utf8))
        try server.write(Array("pong".utf8), timeout: .seconds(2))
        XCTAssertEqual(try client.read(timeout: .seconds(2)), Array("pong".utf8))
        server.shutdown()
        XCTAssertEqual(try client.read(timeout: .seconds(2)), [])
    }

    func testLocalhostResolvesThroughGetaddrinfo() throws {
        let listener = try TCPSocket.listen()
        defer { listener.close() }
        let client = try TCPSocket.connect(host: "localhost", port: try listener.localPort(), timeout: .seconds(2))
        defer { client.close() }
        let server = try XCTUnwrap(try listener.accept(timeout: .seconds(2)), "the listener on the loopback saw the connection")
        defer { server.close() }
        try client.write(Array("hi".utf8), timeout: .seconds(2))
        XCTAssertEqual(try server.read(timeout: .seconds(2)), Array("hi".utf8))
    }

    func testRefusedPortGivesECONNREFUSED() throws {
        let listener = try TCPSocket.listen()
        let port = try listener.localPort()
        listener.close()
        XCTAssertThrowsError(try TCPSocket.connect(host: "127.0.0.1", port: port, timeout: .seconds(2))) { error in
            XCTAssertEqual(error as? SocketError, .system(operation: .connect, errno: ECONNREFUSED))
            XCTAssertTrue((error as? SocketError)?.isConnectionRefused ?? false)
        }
    }

    func testReadTimesOut() throws {
        let listener = try TCPSocket.listen()
        defer { listener.close() }
        let client = try TCPSocket.connect(host: "127.0.0.1", port: try listener.localPort(), timeout: .seconds(2))
        defer { client.close() }
        XCTAssertThrowsError(try client.read(timeout: .milliseconds(50))) {
            XCTAssertEqual($0 as? SocketError, .timedOut(operation: .read))
        }
    }

    func testAcceptTimesOutWithNil() throws {
        let listener = try TCPSocket.listen()
        defer { listener.close() }
        XCTAssertNil(try listener.accept(timeout: .milliseconds(20)))
    }

    func testLingerZeroCloseResetsThePeer() throws {
        let listener = try TCPSocket.listen()
        defer { listener.close() }
        let client = try TCPSocket.connect(host: "127.0.0.1", port: try listener.localPort(), timeout: .seconds(2))
        defer { client.close() }
        let server = try XCTUnwrap(try listener.accept(timeout: .seconds(2)))
        server.setLingerZero()
        server.close()
        XCTAssertThrowsError(try client.read(timeout: .seconds(2))) { error in
            XCTAssertEqual(error as? SocketError, .system(operation: .read, errno: ECONNRESET))
            XCTAssertTrue((error as? SocketError)?.isConnectionReset ?? false)
        }
    }

    func testErrorDescriptionsNameTheProblem() {
        XCTAssertTrue(SocketError.system(operation: .connect, errno: ECONNREFUSED).description.contains("Connection refused"))
        XCTAssertEqual(SocketError.timedOut(operation: .read).description, "read timed out")
    }
}

final class TCPSocketConnectTimeoutTests: XCTestCase {
    /// A listener that never accepts and has a full backlog drops further SYNs, so connect must time out.
    func testConnectTimesOutWhenTheBacklogIsFull() throws {
        let listener = try TCPSocket.listen(backlog: 0)
        defer { listener.close() }
        let port = try listener.localPort()
        var connected: [TCPSocket] = []
        defer { connected.forEach { $0.close() } }
        var timedOut = false
        for _ in 0..<8 where !timedOut {
            do {
                connected.append(try TCPSocket.connect(host: "127.0.0.1", port: port, timeout: .milliseconds(300)))
            } catch SocketError.timedOut(let operation) {
                XCTAssertEqual(operation, .connect)
                timedOut = true
            }
        }
        XCTAssertTrue(timedOut, "connected \(connected.count) times without a timeout")
    }
}
