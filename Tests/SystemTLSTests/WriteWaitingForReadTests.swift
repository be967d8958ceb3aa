@testable import SystemTLS
import TestSupport
import XCTest

/// An `SSL_write` that must read the peer's bytes before it can write (OpenSSL's
/// `SSL_ERROR_WANT_READ` from a write: a handshake under way after the first, as a renegotiation
/// or a TLS 1.3 post-handshake message read in part leaves it) is no failure: the plaintext waits
/// in the machine and goes out, in order, once the peer's bytes arrive. Produced for real with a
/// renegotiation the tests allow on both machines (the product never allows one).
final class WriteWaitingForReadTests: XCTestCase {
    /// A client in the middle of a renegotiation: its new ClientHello is out, its handshake waits
    /// for the server's answer, held back in `serverAnswer`.
    private func clientWaitingForTheServer() throws -> (connection: Connection, clientHello: [UInt8]) {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext(maximumVersion: .v1_2))
        XCTAssertEqual(connection.client.handshake?.version, .v1_2)
        connection.client.machine.allowRenegotiationForTesting()
        connection.server.perform(connection.server.machine.requestRenegotiationForTesting())
        connection.client.perform(connection.client.machine.receive(ciphertext: connection.server.takeOutbox()))
        let clientHello = connection.client.takeOutbox()
        XCTAssertFalse(clientHello.isEmpty, "the client answered the HelloRequest with a new handshake")
        return (connection, clientHello)
    }

    func testAWriteThatWantsThePeersBytesWaitsForThemAndThenGoesOut() throws {
        let (connection, clientHello) = try clientWaitingForTheServer()
        let first = TLSTestKit.bytes(3_000, seed: 1)
        let second = TLSTestKit.bytes(40_000, seed: 2)
        connection.client.perform(connection.client.machine.send(plaintext: first))
        connection.client.perform(connection.client.machine.send(plaintext: second))
        XCTAssertNil(connection.client.failure, "a write that wants to read is not a failure")
        XCTAssertEqual(connection.client.machine.state, .established)
        XCTAssertTrue(connection.client.outbox.isEmpty, "nothing written while the handshake waits")

        // The server's answer completes the renegotiation; the plaintext follows, in order.
        connection.client.outbox = [clientHello]
        connection.pump()
        XCTAssertEqual(connection.server.received, first + second)
        XCTAssertNil(connection.client.failure)
        XCTAssertNil(connection.server.failure)

        // And the connection goes on both ways.
        connection.server.perform(connection.server.machine.send(plaintext: Array("answer".utf8)))
        connection.pump()
        XCTAssertEqual(connection.client.received, Array("answer".utf8))
    }
}
