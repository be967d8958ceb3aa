@testable import SystemTLS
import TestSupport
import XCTest

/// Handshakes that fail for other reasons than the certificate, each produced for real.
final class HandshakeFailureTests: XCTestCase {
    func testAClientAskingFor13RefusesAServerThatStopsAt12() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(minimumVersion: .v1_3),
                                                to: TLSTestKit.serverContext(maximumVersion: .v1_2))
        XCTAssertEqual(connection.client.failure, .protocolVersionRefused, "the server's protocol_version alert")
        XCTAssertEqual(connection.server.failure, .protocolVersionRefused, "no version in common")
        XCTAssertNil(connection.client.handshake)
    }

    func testAServerWithNoProtocolInCommonEndsTheHandshakeWithItsAlert() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext(applicationProtocols: ["h2"]))
        XCTAssertEqual(connection.client.failure, .handshakeFailed(.noApplicationProtocol))
        XCTAssertEqual(connection.client.failure.map { "\($0)" }, "handshakeFailed(no_application_protocol (120))")
        XCTAssertEqual(connection.server.machine.state, .failed)
    }

    func testAServersRenegotiationRequestIsRefusedAndEndsTheConnection() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext(maximumVersion: .v1_2))
        XCTAssertEqual(connection.client.handshake?.version, .v1_2)
        let helloRequest = connection.server.machine.requestRenegotiationForTesting()
        XCTAssertFalse(helloRequest.isEmpty, "the server asks")
        connection.server.perform(helloRequest)
        connection.pump()
        XCTAssertEqual(connection.server.failure, .renegotiationRefused, "the client answered no_renegotiation")
        XCTAssertEqual(connection.client.failure, .alertReceived(.handshakeFailure), "and the server gave up on the connection")
        XCTAssertEqual(connection.client.events.filter { if case .handshake = $0 { true } else { false } }.count, 1, "no second handshake")
    }

    func testAPlainHTTPAnswerIsAProtocolError() throws {
        let client = Endpoint(try TLSMachine(client: TLSTestKit.clientContext(), host: "localhost"))
        client.perform(client.machine.start())
        client.perform(client.machine.receive(ciphertext: Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)))
        guard case .protocolError(let error)? = client.failure else { return XCTFail("protocol error expected, got \(client.events)") }
        XCTAssertEqual(error.library, OpenSSLConstants.errLibSSL)
        XCTAssertFalse(error.description.isEmpty)
        XCTAssertEqual(client.machine.state, .failed)
    }

    /// Random bytes in place of the server's, after its first `step` records (handshake,
    /// tickets, a response, close_notify): one failure, never a completed handshake or
    /// plaintext from them.
    func testRandomBytesAtEveryStepFailTheClient() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        for maximum in [TLSVersion.v1_2, .v1_3] {
            let server = try TLSTestKit.serverContext(maximumVersion: maximum)
            let client = try TLSTestKit.clientContext()
            let whole = try exchange(client, server, deliveringAtMost: nil)
            XCTAssertEqual(whole.client.received, [1, 2, 3])
            XCTAssertEqual(whole.client.closure, .clean)
            XCTAssertGreaterThan(whole.delivered, 4, "\(maximum): a handshake, a response and close_notify take several records")
            for step in 0..<whole.delivered {
                for seed in 1...3 as ClosedRange<UInt64> {
                    let (endpoint, delivered) = try exchange(client, server, deliveringAtMost: step)
                    XCTAssertEqual(delivered, step)
                    let before = endpoint.events.count
                    endpoint.perform(endpoint.machine.receive(ciphertext: TLSTestKit.bytes(20_000, seed: seed * 1_000 + UInt64(step))))
                    endpoint.perform(endpoint.machine.receiveEndOfStream())
                    let after = Array(endpoint.events.dropFirst(before))
                    guard after.count == 1, case .failed = after[0] else {
                        return XCTFail("\(maximum), step \(step), seed \(seed): one failure expected after the random bytes, got \(after)")
                    }
                }
            }
        }
    }

    /// A client against a live server that answers with three bytes and close_notify once the
    /// handshake completed; the server's records reach the client one by one, `limit` of them
    /// at most (all when `nil`).
    private func exchange(_ clientContext: TLSClientContext, _ serverContext: TLSServerContext,
                          deliveringAtMost limit: Int?) throws -> (client: Endpoint, delivered: Int) {
        let client = Endpoint(try TLSMachine(client: clientContext, host: "localhost"))
        let server = Endpoint(try TLSMachine(server: serverContext))
        client.perform(client.machine.start())
        var delivered = 0
        var answered = false
        for _ in 0..<10 {
            server.perform(server.machine.receive(ciphertext: client.takeOutbox()))
            if server.machine.state == .established, !answered {
                answered = true
                server.perform(server.machine.send(plaintext: [1, 2, 3]))
                server.perform(server.machine.close())
            }
            let records = TLSRecords.split(server.takeOutbox())
            if records.isEmpty { break }
            for record in records {
                if let limit, delivered == limit { return (client, delivered) }
                client.perform(client.machine.receive(ciphertext: record))
                delivered += 1
            }
        }
        return (client, delivered)
    }
}

/// Splits a TLS byte stream into its records (a 5-byte header whose last two bytes give the length).
enum TLSRecords {
    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var records: [[UInt8]] = []
        var index = 0
        while index + 5 <= bytes.count {
            let end = min(bytes.count, index + 5 + Int(bytes[index + 3]) << 8 + Int(bytes[index + 4]))
            records.append(Array(bytes[index..<end]))
            index = end
        }
        return records
    }
}
