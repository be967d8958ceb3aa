@testable import SystemTLS
import XCTest

/// A client takes its session after a handshake and offers it on a new connection to the same
/// host, whose handshake is then abbreviated.
final class SessionResumptionTests: XCTestCase {
    func testATLS13SessionIsResumedOnTheNextConnection() throws {
        try checkResumption(server: TLSTestKit.serverContext(), version: .v1_3)
    }

    func testATLS12SessionIsResumedOnTheNextConnection() throws {
        try checkResumption(server: TLSTestKit.serverContext(maximumVersion: .v1_2), version: .v1_2)
    }

    private func checkResumption(server: TLSServerContext, version: TLSVersion, file: StaticString = #filePath, line: UInt = #line) throws {
        let client = try TLSTestKit.clientContext()
        let first = try TLSTestKit.connect(client, to: server)
        XCTAssertEqual(first.client.handshake?.resumedSession, false, file: file, line: line)
        let session = try XCTUnwrap(first.client.machine.session, "a resumable session after the handshake", file: file, line: line)
        XCTAssertEqual(session.host, "localhost", file: file, line: line)

        let second = try TLSTestKit.connect(client, session: session, to: server)
        XCTAssertEqual(second.client.handshake?.version, version, file: file, line: line)
        XCTAssertEqual(second.client.handshake?.resumedSession, true, "SSL_session_reused on the client", file: file, line: line)
        XCTAssertEqual(second.server.handshake?.resumedSession, true, "and on the server", file: file, line: line)
        // The resumed connection carries data as any other.
        second.client.perform(second.client.machine.send(plaintext: Array("GET / HTTP/1.1\r\n\r\n".utf8)))
        second.pump()
        XCTAssertEqual(second.server.received, Array("GET / HTTP/1.1\r\n\r\n".utf8), file: file, line: line)
    }

    func testASessionIsOfferedOnlyForItsHostAndFromItsContext() throws {
        let server = try TLSTestKit.serverContext()
        let client = try TLSTestKit.clientContext()
        let first = try TLSTestKit.connect(client, to: server)
        let session = try XCTUnwrap(first.client.machine.session)

        let otherHost = try TLSTestKit.connect(client, host: "127.0.0.1", session: session, to: server)
        XCTAssertEqual(otherHost.client.handshake?.resumedSession, false, "a session is for the host it was made with")
        // A context that verifies nothing must not resume a session made under another one, nor the reverse.
        let unverified = try TLSTestKit.clientContext(verification: .none)
        let otherContext = try TLSTestKit.connect(unverified, session: session, to: server)
        XCTAssertEqual(otherContext.client.handshake?.resumedSession, false, "a session is for the context it was made in")
    }

    func testThereIsNoSessionBeforeTheHandshakeNorOnAServer() throws {
        let client = try TLSMachine(client: TLSTestKit.clientContext(), host: "localhost")
        XCTAssertNil(client.session)
        let connection = Connection(client: client, server: try TLSMachine(server: TLSTestKit.serverContext()))
        XCTAssertNotNil(connection.client.machine.session)
        XCTAssertNil(connection.server.machine.session, "sessions are a client's to keep")
    }
}
