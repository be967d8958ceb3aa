import EventLoopIO
import Foundation
import SystemTLS
import TestSupport
import XCTest

/// The channel's TLS layer on a client's side through an HTTPS proxy, without a socket: the
/// client's TLS to the origin rides inside its TLS to the proxy (`ChannelTLS(machine:inside:)`).
/// Each test plays the proxy (a server machine that relays its plaintext) and the origin (a
/// server machine behind it) in memory, both with the test CA's certificate.
final class ChannelTLSCarrierTests: XCTestCase {
    typealias Step = ChannelTLS.Step

    private var layer: ChannelTLS!
    private var proxy: TLSMachine!
    private var origin: TLSMachine!
    /// What the origin received, and how the proxy's and the origin's peers ended.
    private var originPlaintext: [UInt8] = []
    private var originClosure: TLSMachine.Closure?
    private var proxyClosure: TLSMachine.Closure?

    override func setUpWithError() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        let clientContext = try TLSClientContext(configuration: TLSFixtures.client)
        let serverContext = try TLSServerContext(configuration: TLSFixtures.server())
        proxy = try TLSMachine(server: serverContext)
        origin = try TLSMachine(server: serverContext)
        // TLS to the proxy first, established before the tunnel is asked for.
        var toProxy = ChannelTLS(machine: try TLSMachine(client: clientContext, host: "localhost"))
        var bytes = sent(toProxy.start())
        for _ in 0..<10 where !bytes.isEmpty {
            bytes = sent(toProxy.received(ciphertext: proxyWrites(proxy.receive(ciphertext: bytes))))
        }
        XCTAssertTrue(toProxy.isEstablished)
        layer = ChannelTLS(machine: try TLSMachine(client: clientContext, host: "localhost"), inside: toProxy)
    }

    /// The bytes of the `.send` steps, in order.
    private func sent(_ steps: [Step]) -> [UInt8] {
        steps.reduce(into: []) { bytes, step in if case .send(let records) = step { bytes += records } }
    }

    /// The plaintext of the `.deliver` steps, in order.
    private func delivered(_ steps: [Step]) -> [UInt8] {
        steps.reduce(into: []) { bytes, step in if case .deliver(let plaintext) = step { bytes += plaintext } }
    }

    /// The proxy's writes (its own records only).
    private func proxyWrites(_ actions: [TLSMachine.Action]) -> [UInt8] {
        actions.reduce(into: []) { bytes, action in if case .write(let written) = action { bytes += written } }
    }

    /// The origin's actions: its writes, which the proxy seals for the client.
    private func originPerforms(_ actions: [TLSMachine.Action]) -> [UInt8] {
        var toClient: [UInt8] = []
        for action in actions {
            switch action {
            case .write(let bytes): toClient += proxyWrites(proxy.send(plaintext: bytes))
            case .deliver(let plaintext): originPlaintext += plaintext
            case .closed(let closure): originClosure = closure
            case .handshakeCompleted, .failed: break
            }
        }
        return toClient
    }

    /// The proxy relays what the client sent: its plaintext goes to the origin; returns what goes
    /// back to the client (the proxy's records and the origin's, sealed by the proxy).
    private func relay(_ fromClient: [UInt8]) -> [UInt8] {
        var toClient: [UInt8] = []
        for action in proxy.receive(ciphertext: fromClient) {
            switch action {
            case .write(let bytes): toClient += bytes
            case .deliver(let plaintext): toClient += originPerforms(origin.receive(ciphertext: plaintext))
            case .closed(let closure): proxyClosure = closure
            case .handshakeCompleted, .failed: break
            }
        }
        return toClient
    }

    /// Runs the origin's handshake through the proxy; returns every step the layer gave.
    @discardableResult
    private func handshake() -> [Step] {
        var steps = layer.start()
        var all = steps
        for _ in 0..<10 where !sent(steps).isEmpty {
            steps = layer.received(ciphertext: relay(sent(steps)))
            all += steps
        }
        return all
    }

    func testTheOriginsHandshakeRunsInsideTheProxysTLS() {
        let handshakes = handshake().compactMap { step -> TLSHandshake? in if case .handshakeCompleted(let h) = step { h } else { nil } }
        XCTAssertEqual(handshakes.count, 1, "the origin's, once (the proxy's completed before)")
        XCTAssertEqual(handshakes.first?.serverName, "localhost")
        XCTAssertTrue(layer.isEstablished)
        XCTAssertEqual(origin.state, .established, "the origin saw a TLS client, through the proxy's plaintext")
    }

    func testARequestReachesTheOriginAndItsAnswerComesBack() {
        handshake()
        let request = Array("GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        let toProxy = sent(layer.seal(request[...]))
        XCTAssertNil(toProxy.firstRange(of: Array("GET /echo".utf8)), "nothing in the clear on the socket")
        XCTAssertTrue(relay(toProxy).isEmpty)
        XCTAssertEqual(originPlaintext, request)
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        XCTAssertEqual(delivered(layer.received(ciphertext: originPerforms(origin.send(plaintext: answer)))), answer)
    }

    /// The proxy ends its TLS (its `close_notify`) without the origin's: the origin's stream
    /// was cut, which the owner reads as `.truncated`.
    func testTheProxysEndWithoutTheOriginsCloseNotifyIsATruncation() {
        handshake()
        let answer = Array("HTTP/1.1 200 OK\r\n\r\npartial".utf8)
        let bytes = originPerforms(origin.send(plaintext: answer)) + proxyWrites(proxy.close())
        XCTAssertEqual(delivered(layer.received(ciphertext: bytes)), answer)
        XCTAssertEqual(layer.takeEnd(), .truncated, "the origin's close_notify never came")
    }

    func testTheOriginsCloseNotifyIsACleanEnd() {
        handshake()
        XCTAssertEqual(layer.received(ciphertext: originPerforms(origin.close())).filter { if case .failed = $0 { true } else { false } }, [])
        XCTAssertEqual(layer.takeEnd(), .clean)
        XCTAssertEqual(layer.receivedEndOfStream(), [], "the socket's end after it adds nothing")
        XCTAssertNil(layer.takeEnd())
    }

    func testClosingSendsTheOriginsCloseNotifyThenTheProxys() {
        handshake()
        _ = relay(layer.close())  // each answers with its own close_notify
        XCTAssertEqual(originClosure, .clean, "the origin got our close_notify, through the proxy")
        XCTAssertEqual(proxyClosure, .clean, "then the proxy got its own")
    }
}
