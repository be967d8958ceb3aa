import EventLoopIO
import Foundation
import SystemTLS
import TestSupport
import XCTest

/// The channel's TLS layer on a server's side, without a socket: each test plays a client (a
/// `TLSMachine(client:)` trusting the test CA) against it in memory and checks the steps the
/// channel's owner would perform.
final class ChannelTLSTests: XCTestCase {
    typealias Step = ChannelTLS.Step

    private var layer: ChannelTLS!
    private var client: TLSMachine!
    /// What the client's machine reported, writes left out.
    private var clientPlaintext: [UInt8] = []
    private var clientClosure: TLSMachine.Closure?
    private var clientFailure: TLSFailure?

    override func setUpWithError() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        layer = ChannelTLS(machine: try TLSMachine(server: TLSServerContext(configuration: TLSFixtures.server())))
        client = try TLSMachine(client: TLSClientContext(configuration: TLSFixtures.client), host: "localhost")
    }

    /// Hands `ciphertext` to the layer.
    private func serverReceives(_ ciphertext: [UInt8]) -> [Step] {
        ciphertext.withUnsafeBytes { layer.received(ciphertext: $0) }
    }

    /// The bytes of the `.send` steps, in order.
    private func sent(_ steps: [Step]) -> [UInt8] {
        steps.reduce(into: []) { bytes, step in if case .send(let records) = step { bytes += records } }
    }

    /// The plaintext of the `.deliver` steps, in order.
    private func delivered(_ steps: [Step]) -> [UInt8] {
        steps.reduce(into: []) { bytes, step in if case .deliver(let plaintext) = step { bytes += plaintext } }
    }

    /// Performs the client's actions; returns the bytes it writes for the server.
    @discardableResult
    private func clientPerforms(_ actions: [TLSMachine.Action]) -> [UInt8] {
        var writes: [UInt8] = []
        for action in actions {
            switch action {
            case .write(let bytes): writes += bytes
            case .deliver(let bytes): clientPlaintext += bytes
            case .handshakeCompleted: break
            case .closed(let closure): clientClosure = closure
            case .failed(let failure): clientFailure = failure
            }
        }
        return writes
    }

    /// Runs the handshake; returns the steps of the layer's last turn (the one that completed it).
    @discardableResult
    private func handshake() -> [Step] {
        var toServer = clientPerforms(client.start())
        var last: [Step] = []
        for _ in 0..<10 where !toServer.isEmpty {
            last = serverReceives(toServer)
            toServer = clientPerforms(client.receive(ciphertext: sent(last)))
        }
        return last
    }

    func testTheHandshakeIsAnsweredAndReportedOnce() throws {
        let hello = clientPerforms(client.start())
        let answer = serverReceives(hello)
        XCTAssertFalse(sent(answer).isEmpty, "the server's flight goes out")
        XCTAssertFalse(layer.isEstablished)
        let finished = clientPerforms(client.receive(ciphertext: sent(answer)))
        let last = serverReceives(finished)
        let handshakes = last.compactMap { step -> TLSHandshake? in if case .handshakeCompleted(let h) = step { h } else { nil } }
        XCTAssertEqual(handshakes.count, 1)
        XCTAssertEqual(handshakes.first?.applicationProtocol, "http/1.1")
        XCTAssertEqual(handshakes.first?.serverName, "localhost")
        XCTAssertEqual(handshakes.first?.resumedSession, false)
        XCTAssertTrue(layer.isEstablished)
        XCTAssertNil(clientFailure)
    }

    func testARequestIsDeliveredAndTheSealedAnswerReachesTheClient() throws {
        handshake()
        let request = Array("GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        let steps = serverReceives(clientPerforms(client.send(plaintext: request)))
        XCTAssertEqual(delivered(steps), request)
        XCTAssertNil(layer.takeEnd(), "no end with the request")
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        clientPerforms(client.receive(ciphertext: sent(layer.seal(answer[...]))))
        XCTAssertEqual(clientPlaintext, answer)
    }

    /// A request and the client's `close_notify` in one read: the request goes to the HTTP
    /// machine now, the end once it reads again, and only once.
    func testThePeersEndWaitsForTheNextReadAfterThePlaintextThatCameWithIt() throws {
        handshake()
        let request = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        let bytes = clientPerforms(client.send(plaintext: request)) + clientPerforms(client.close())
        let steps = serverReceives(bytes)
        XCTAssertEqual(delivered(steps), request)
        XCTAssertEqual(layer.takeEnd(), .clean, "ended by close_notify")
        XCTAssertNil(layer.takeEnd(), "taken once")
        // The machine answered the client's close_notify with its own.
        clientPerforms(client.receive(ciphertext: sent(steps)))
        XCTAssertEqual(clientClosure, .clean)
    }

    /// The socket's end without a `close_notify` is an end too (the HTTP machine decides what it cut).
    func testTheSocketsEndWithoutCloseNotifyIsHeldForTheNextRead() throws {
        handshake()
        XCTAssertEqual(layer.receivedEndOfStream(), [])
        XCTAssertEqual(layer.takeEnd(), .truncated, "cut without close_notify")
    }

    /// Withholding the last bytes cuts the connection inside its last record: the client gets the
    /// records before it, then an end without `close_notify`.
    func testWithholdingCutsInsideTheLastRecord() throws {
        handshake()
        let answer = [UInt8](repeating: UInt8(ascii: "r"), count: 20_000)  // two records: 16,384 bytes, then the rest
        let steps = layer.seal(answer[...], withholding: 16)
        clientPerforms(client.receive(ciphertext: sent(steps)))
        XCTAssertEqual(clientPlaintext.count, 16_384, "the first record whole, nothing of the cut one")
        XCTAssertNil(clientFailure, "a record cut short is not a failure until the stream ends")
        clientPerforms(client.receiveEndOfStream())
        XCTAssertEqual(clientClosure, .truncated)
    }

    /// Withholding more than was sealed sends nothing at all.
    func testWithholdingEverythingSendsNothing() throws {
        handshake()
        XCTAssertEqual(layer.seal(Array("ok".utf8)[...], withholding: 10_000), [])
    }

    /// Plain HTTP sent to the TLS layer fails it, with an alert for the client when OpenSSL sends one.
    func testBytesThatAreNotTLSFailTheConnection() throws {
        let steps = serverReceives(Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        guard case .failed(let failure)? = steps.last else { return XCTFail("not failed: \(steps)") }
        guard case .protocolError = failure else { return XCTFail("\(failure)") }
        XCTAssertTrue(steps.dropLast().allSatisfy { if case .send = $0 { true } else { false } }, "only an alert before: \(steps)")
        XCTAssertFalse(layer.isEstablished)
    }

    /// A client that refuses the server's certificate ends the handshake with an alert; the layer fails on it.
    func testAClientsAlertFailsTheConnection() throws {
        client = try TLSMachine(client: TLSClientContext(configuration: TLSConfiguration()), host: "localhost")  // the system's roots
        let hello = clientPerforms(client.start())
        let alert = clientPerforms(client.receive(ciphertext: sent(serverReceives(hello))))
        XCTAssertNotNil(clientFailure, "the client refused the test CA's certificate")
        guard case .failed(let failure)? = serverReceives(alert).last else { return XCTFail("the server did not fail") }
        guard case .handshakeFailed = failure else { return XCTFail("\(failure)") }
    }
}
