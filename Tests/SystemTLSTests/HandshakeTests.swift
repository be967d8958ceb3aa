@testable import SystemTLS
import TestSupport
import XCTest

/// Full handshakes between a client and a server machine in memory, and what they agree on.
final class HandshakeTests: XCTestCase {
    func testATLS13HandshakeAgreesOnVersionALPNAndServerName() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        let cipher = try XCTUnwrap(connection.client.handshake?.cipher)
        XCTAssertTrue(cipher.hasPrefix("TLS_"), "a TLS 1.3 suite, by OpenSSL's name: \(cipher)")
        let expected = TLSHandshake(version: .v1_3, applicationProtocol: "http/1.1", resumedSession: false, serverName: "localhost", cipher: cipher)
        XCTAssertEqual(connection.client.events, [.handshake(expected)])
        XCTAssertEqual(connection.server.events, [.handshake(expected)], "the server saw the name the client sent (SNI)")
        XCTAssertEqual(connection.client.machine.state, .established)
        XCTAssertEqual(connection.server.machine.state, .established)
    }

    func testATLS12HandshakeWithAServerThatStopsAt12() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext(maximumVersion: .v1_2))
        XCTAssertEqual(connection.client.handshake?.version, .v1_2)
        XCTAssertEqual(connection.server.handshake?.version, .v1_2)
        XCTAssertEqual(connection.client.handshake?.applicationProtocol, "http/1.1")
        XCTAssertEqual(connection.server.handshake?.serverName, "localhost")
        let cipher = try XCTUnwrap(connection.client.handshake?.cipher)
        XCTAssertFalse(cipher.hasPrefix("TLS_"), "a TLS 1.2 suite has OpenSSL's older name: \(cipher)")
        XCTAssertEqual(connection.server.handshake?.cipher, cipher, "both ends name the one suite")
    }

    func testAClientAskingFor13GetsIt() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(minimumVersion: .v1_3), to: TLSTestKit.serverContext())
        XCTAssertEqual(connection.client.handshake?.version, .v1_3)
    }

    func testTheClientSpeaksFirstWithAHandshakeRecordAndTheServerWaits() throws {
        let server = try TLSMachine(server: TLSTestKit.serverContext())
        XCTAssertEqual(server.start(), [], "a server answers a ClientHello; it has nothing to say first")
        XCTAssertEqual(server.state, .handshaking)
        let client = try TLSMachine(client: TLSTestKit.clientContext(), host: "localhost")
        let actions = client.start()
        guard actions.count == 1, case .write(let hello) = actions[0] else { return XCTFail("expected one write, got \(actions)") }
        XCTAssertEqual(hello.first, 22, "a handshake record (content type 22)")
        XCTAssertEqual(client.start(), [], "start runs once")
    }

    func testAnIPAddressIsCheckedAgainstIPNamesAndNeverSentAsServerName() throws {
        for host in ["127.0.0.1", "::1", "[::1]"] {
            let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), host: host, to: TLSTestKit.serverContext())
            XCTAssertNotNil(connection.client.handshake, host)
            XCTAssertNil(connection.server.handshake?.serverName, "\(host): no SNI for an IP literal (RFC 6066)")
            XCTAssertNil(connection.client.handshake?.serverName, host)
        }
    }

    func testAHostWithATrailingDotIsTheSameName() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), host: "localhost.", to: TLSTestKit.serverContext())
        XCTAssertEqual(connection.server.handshake?.serverName, "localhost")
    }

    func testTheServerPicksItsPreferredProtocolAmongTheClients() throws {
        let server = try TLSTestKit.serverContext(applicationProtocols: ["h2", "http/1.1"])
        let both = try TLSTestKit.connect(TLSTestKit.clientContext(applicationProtocols: ["http/1.1", "h2"]), to: server)
        XCTAssertEqual(both.client.handshake?.applicationProtocol, "h2", "the server's preference wins")
        XCTAssertEqual(both.server.handshake?.applicationProtocol, "h2")
        let none = try TLSTestKit.connect(TLSTestKit.clientContext(applicationProtocols: []), to: server)
        XCTAssertNotNil(none.client.handshake, "a client offering no ALPN is served")
        XCTAssertNil(none.client.handshake?.applicationProtocol)
    }

    func testAServerChainWithTheCAAppendedIsServed() throws {
        let chain = try TLSFixtures.text("localhost.pem") + TLSFixtures.text("ca.pem")
        let server = try TLSServerContext(configuration: TLSServerConfiguration(
            certificateChain: .pem(chain), privateKey: .pem(TLSFixtures.text("localhost.key"))))
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: server)
        XCTAssertEqual(connection.client.handshake?.version, .v1_3)
    }

    func testBytesArrivingOneAtATimeMakeTheSameHandshake() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext(maximumVersion: .v1_2), chunk: 1)
        XCTAssertEqual(connection.client.handshake?.version, .v1_2)
        let message = TLSTestKit.bytes(1_000)
        connection.server.perform(connection.server.machine.send(plaintext: message))
        connection.pump(chunk: 1)
        XCTAssertEqual(connection.client.received, message)
    }
}
