@testable import SystemTLS
import TestSupport
import XCTest

/// Application data both ways once the handshake completed, in several sizes and splits.
final class DataTransferTests: XCTestCase {
    func testDataOfEverySizeArrivesWholeBothWaysInBothVersions() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        for maximum in [TLSVersion.v1_2, .v1_3] {
            let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext(maximumVersion: maximum))
            for (index, size) in [1, 16_384, 16_385, 1 << 20].enumerated() {
                let request = TLSTestKit.bytes(size, seed: UInt64(index))
                let response = TLSTestKit.bytes(size, seed: UInt64(100 + index))
                connection.client.received = []
                connection.server.received = []
                connection.client.perform(connection.client.machine.send(plaintext: request))
                connection.server.perform(connection.server.machine.send(plaintext: response))
                connection.pump()
                XCTAssertEqual(connection.server.received, request, "\(maximum), \(size) bytes to the server")
                XCTAssertEqual(connection.client.received, response, "\(maximum), \(size) bytes to the client")
            }
            XCTAssertNil(connection.client.failure)
            XCTAssertNil(connection.server.failure)
        }
    }

    func testAMegabyteReceivedAtOnceIsDeliveredInBoundedPieces() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        let body = TLSTestKit.bytes(1 << 20)
        connection.server.perform(connection.server.machine.send(plaintext: body))
        let ciphertext = connection.server.takeOutbox()
        XCTAssertGreaterThan(ciphertext.count, body.count, "records add headers and tags")
        connection.client.perform(connection.client.machine.receive(ciphertext: ciphertext))
        XCTAssertEqual(connection.client.received, body)
        let pieces = connection.client.events.compactMap { if case .data(let count) = $0 { count } else { nil } }
        XCTAssertEqual(pieces.reduce(0, +), body.count)
        XCTAssertEqual(pieces.count, body.count / TLSMachine.largestReadBuffer, "one delivery per full read buffer")
        XCTAssertTrue(pieces.allSatisfy { $0 <= TLSMachine.largestReadBuffer })
    }

    func testPlaintextSentBeforeTheHandshakeGoesOutRightAfterIt() throws {
        let client = try TLSMachine(client: TLSTestKit.clientContext(), host: "localhost")
        let request = Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        XCTAssertEqual(client.send(plaintext: request), [], "queued: there are no keys yet")
        let server = Endpoint(try TLSMachine(server: TLSTestKit.serverContext()))
        let clientEnd = Endpoint(client)
        clientEnd.perform(client.start())
        server.perform(server.machine.receive(ciphertext: clientEnd.takeOutbox()))
        let finishing = client.receive(ciphertext: server.takeOutbox())
        // The client's Finished, the handshake's outcome, then the queued request.
        guard finishing.count == 3, case .write = finishing[0], case .handshakeCompleted = finishing[1], case .write(let encrypted) = finishing[2] else {
            return XCTFail("expected write, handshakeCompleted, write; got \(finishing)")
        }
        clientEnd.perform(finishing)
        server.perform(server.machine.receive(ciphertext: clientEnd.takeOutbox()))
        XCTAssertEqual(server.received, request)
        XCTAssertFalse(encrypted.isEmpty)
    }

    func testDeliveriesOfOneCallFollowTheRecordsInOrder() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        var expected: [UInt8] = []
        for index in 0..<5 {
            let piece = TLSTestKit.bytes(3_000 + index, seed: UInt64(index))
            expected += piece
            connection.server.perform(connection.server.machine.send(plaintext: piece))
        }
        connection.client.perform(connection.client.machine.receive(ciphertext: connection.server.takeOutbox()))
        XCTAssertEqual(connection.client.received, expected)
        XCTAssertEqual(connection.client.events.last, .data(expected.count), "the five records' plaintext in one delivery")
    }

    func testADeliveryKeptPastTheNextCallIsUnchanged() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        connection.server.perform(connection.server.machine.send(plaintext: [1, 2, 3]))
        let first = connection.client.machine.receive(ciphertext: connection.server.takeOutbox())
        connection.server.perform(connection.server.machine.send(plaintext: [4, 5, 6]))
        let second = connection.client.machine.receive(ciphertext: connection.server.takeOutbox())
        XCTAssertEqual(first, [.deliver([1, 2, 3])], "the slice kept its bytes while the machine read the next record")
        XCTAssertEqual(second, [.deliver([4, 5, 6])])
    }
}
