import HTTPWire
@testable import HTTPClient
import XCTest

/// `ProxyTunnelMachine`'s decisions on the proxy's answers to `CONNECT`, byte by byte.
final class ProxyTunnelMachineTests: XCTestCase {
    private func started(authorization: String? = nil) -> ProxyTunnelMachine {
        var machine = ProxyTunnelMachine(host: "api.example.com", port: 443, authorization: authorization)
        _ = machine.start()
        XCTAssertEqual(machine.written(), .awaitAnswer)
        return machine
    }

    private func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(text.utf8) }

    func testTheRequestNamesTheOriginInAuthorityFormWithTheCredentials() {
        var machine = ProxyTunnelMachine(host: "api.example.com", port: 8443, authorization: "Basic dTpw")
        XCTAssertEqual(machine.start(), .write(Array(
            "CONNECT api.example.com:8443 HTTP/1.1\r\nHost: api.example.com:8443\r\nProxy-Authorization: Basic dTpw\r\n\r\n".utf8)))
        var v6 = ProxyTunnelMachine(host: "::1", port: 443, authorization: nil)
        XCTAssertEqual(v6.start(), .write(Array("CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\n\r\n".utf8)))
    }

    func testA2xxAnswerInPiecesOpensTheTunnel() {
        var machine = started()
        XCTAssertEqual(machine.received(bytes("HTTP/1.0 200 Connection est")), .none)
        XCTAssertEqual(machine.received(bytes("ablished\r\nProxy-agent: tinyproxy\r\n\r\n")), .established)
        XCTAssertEqual(machine.state, .done)
    }

    func testAnInterimAnswerIsSkipped() {
        var machine = started()
        XCTAssertEqual(machine.received(bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")), .established)
    }

    /// A 101 is no interim answer (RFC 9110 §15.2.2: the protocol switches right after its head,
    /// and none was asked for): waiting for another head would last until the connect deadline.
    func testA101IsARefusalNotAnInterimAnswer() {
        var machine = started()
        XCTAssertEqual(machine.received(bytes("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n")),
                       .fail(.proxyRefused(status: 101)))
        XCTAssertEqual(machine.state, .done)
    }

    func testAnyOtherStatusIsARefusalCarryingIt() {
        for status in [407, 403, 502, 301] {
            var machine = started()
            XCTAssertEqual(machine.received(bytes("HTTP/1.1 \(status) No\r\nContent-Length: 5\r\n\r\nnope!")),
                           .fail(.proxyRefused(status: status)), "\(status)")
        }
    }

    func testBytesAfterA2xxBeforeTheClientSpokeAreNoTunnel() {
        var machine = started()
        XCTAssertEqual(machine.received(bytes("HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 200 OK\r\n")),
                       .fail(.response(.malformedStartLine(offset: 0))))
    }

    func testMalformedAnswersTheEndAndTheTimerFail() {
        var garbage = started()
        guard case .fail(.response)? = Optional(garbage.received(bytes("SSH-2.0-OpenSSH\r\n\r\n"))) else { return XCTFail("garbage") }
        var closed = started()
        XCTAssertEqual(closed.received(bytes("HTTP/1.1 200")), .none)
        XCTAssertEqual(closed.endOfStream(), .fail(.connectionLost(errno: nil)))
        var failed = started()
        XCTAssertEqual(failed.readFailed(errno: 104), .fail(.connectionLost(errno: 104)))
        var refused = ProxyTunnelMachine(host: "a.test", port: 443, authorization: nil)
        _ = refused.start()
        XCTAssertEqual(refused.writeFailed(), .fail(.connectionLost(errno: nil)))
        var late = started()
        XCTAssertEqual(late.timerFired(), .fail(.timedOut(.connect)))
    }

    func testAProxyAnsweringBeforeTheWholeRequestIsOutIsHeard() {
        var machine = ProxyTunnelMachine(host: "a.test", port: 443, authorization: nil)
        _ = machine.start()
        XCTAssertEqual(machine.received(bytes("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n")), .fail(.proxyRefused(status: 407)))
    }
}
