@testable import SystemTLS
import XCTest

/// How connections end: `close_notify` either way, and a cut without one.
final class ClosureTests: XCTestCase {
    func testTheClientsCloseNotifyIsAnsweredAndBothEndCleanly() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        let closing = connection.client.machine.close()
        guard closing.count == 1, case .write = closing[0] else { return XCTFail("close_notify expected, got \(closing)") }
        XCTAssertEqual(connection.client.machine.state, .closing)
        connection.client.perform(closing)
        connection.pump()
        XCTAssertEqual(connection.server.closure, .clean, "the server read our close_notify")
        XCTAssertEqual(connection.client.closure, .clean, "and answered with its own")
        XCTAssertEqual(connection.client.machine.state, .closed)
        XCTAssertEqual(connection.server.machine.state, .closed)
    }

    func testDataBeforeTheServersCloseNotifyIsDeliveredFirst() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        connection.server.perform(connection.server.machine.send(plaintext: [7, 8, 9]))
        connection.server.perform(connection.server.machine.close())
        let actions = connection.client.machine.receive(ciphertext: connection.server.takeOutbox())
        guard actions.count == 3, case .write = actions[1] else { return XCTFail("deliver, our close_notify, closed; got \(actions)") }
        XCTAssertEqual(actions[0], .deliver([7, 8, 9]))
        XCTAssertEqual(actions[2], .closed(.clean))
    }

    func testThePeersDataStillArrivesAfterOurClose() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        connection.client.perform(connection.client.machine.close())
        connection.server.perform(connection.server.machine.send(plaintext: [42]))
        connection.client.perform(connection.client.machine.receive(ciphertext: connection.server.takeOutbox()))
        XCTAssertEqual(connection.client.received, [42])
        XCTAssertEqual(connection.client.machine.send(plaintext: [1]), [], "nothing is sent after close_notify")
        connection.pump()
        XCTAssertEqual(connection.client.events, [connection.client.events[0], .data(1), .closed(.clean)])
    }

    func testACutWithoutCloseNotifyMidDataIsTruncatedNotClean() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        let body = TLSTestKit.bytes(100_000)
        connection.server.perform(connection.server.machine.send(plaintext: body))
        let ciphertext = connection.server.takeOutbox()
        connection.client.perform(connection.client.machine.receive(ciphertext: ciphertext[0..<ciphertext.count / 2]))
        connection.client.perform(connection.client.machine.receiveEndOfStream())
        XCTAssertLessThan(connection.client.received.count, body.count)
        XCTAssertEqual(connection.client.received, Array(body[0..<connection.client.received.count]), "what arrived is intact")
        XCTAssertEqual(connection.client.closure, .truncated)
        XCTAssertEqual(connection.client.machine.state, .closed)
        XCTAssertNil(connection.client.failure)
    }

    func testTheEndOfTheStreamDuringTheHandshakeIsTruncated() throws {
        let client = Endpoint(try TLSMachine(client: TLSTestKit.clientContext(), host: "localhost"))
        client.perform(client.machine.start())
        client.perform(client.machine.receiveEndOfStream())
        XCTAssertEqual(client.events, [.closed(.truncated)])
    }

    func testTheEndOfTheStreamAfterCloseNotifyChangesNothing() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        connection.server.perform(connection.server.machine.close())
        connection.pump()
        XCTAssertEqual(connection.client.closure, .clean)
        XCTAssertEqual(connection.client.machine.receiveEndOfStream(), [], "already closed cleanly")
    }

    func testNothingHappensAfterTheEnd() throws {
        let connection = try TLSTestKit.connect(TLSTestKit.clientContext(), to: TLSTestKit.serverContext())
        connection.server.perform(connection.server.machine.send(plaintext: [1]))
        let late = connection.server.takeOutbox()
        connection.client.perform(connection.client.machine.receiveEndOfStream())
        XCTAssertEqual(connection.client.machine.receive(ciphertext: late), [])
        XCTAssertEqual(connection.client.machine.send(plaintext: [1]), [])
        XCTAssertEqual(connection.client.machine.close(), [])
        XCTAssertEqual(connection.client.machine.receiveEndOfStream(), [])
    }

    func testClosingBeforeTheHandshakeSendsNothing() throws {
        let client = try TLSMachine(client: TLSTestKit.clientContext(), host: "localhost")
        _ = client.start()
        XCTAssertEqual(client.send(plaintext: [1, 2]), [])
        XCTAssertEqual(client.close(), [], "no keys yet, so no close_notify")
        XCTAssertEqual(client.state, .closed)
        XCTAssertEqual(client.start(), [])
    }
}
