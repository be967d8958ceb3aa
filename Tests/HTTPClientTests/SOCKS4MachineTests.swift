@testable import HTTPClient
import XCTest

/// `SOCKS4Machine`'s request byte by byte, and its decisions on every reply a proxy can give,
/// whole or in pieces.
final class SOCKS4MachineTests: XCTestCase {
    private typealias Machine = SOCKS4Machine

    /// A reply with `code` (90 grants) and the bound port and address SOCKS4 proxies send.
    private static func reply(_ code: UInt8 = 90) -> ArraySlice<UInt8> { [0, code, 0x1F, 0x90, 127, 0, 0, 1] }

    /// Brought to `awaitingReply`.
    private static func requested(userID: String? = nil) -> Machine {
        var machine = Machine(address: [127, 0, 0, 1], port: 8080, userID: userID)
        XCTAssertEqual(machine.start(), .write(machine.request))
        XCTAssertEqual(machine.written(), .awaitAnswer)
        return machine
    }

    func testTheRequestCarriesThePortTheAddressAndTheUserID() {
        XCTAssertEqual(Machine(address: [10, 1, 2, 3], port: 443, userID: nil).request, [4, 1, 1, 0xBB, 10, 1, 2, 3, 0])
        XCTAssertEqual(Machine(address: [127, 0, 0, 1], port: 8080, userID: "alice").request,
                       [4, 1, 0x1F, 0x90, 127, 0, 0, 1] + Array("alice".utf8) + [0])
    }

    func testAGrantedReplyOpensTheTunnel() {
        var machine = Self.requested()
        XCTAssertTrue(machine.isNegotiating)
        XCTAssertFalse(machine.isSending)
        XCTAssertEqual(machine.received(Self.reply()), .established)
        XCTAssertEqual(machine.state, .done)
        XCTAssertFalse(machine.isNegotiating)
    }

    func testARefusedRequestCarriesTheReplyCode() {
        for code: UInt8 in 91...93 {
            var machine = Self.requested()
            XCTAssertEqual(machine.received(Self.reply(code)), .fail(.proxyRefused(status: Int(code))), "\(code)")
        }
    }

    func testAReplyInPiecesAndOneThatCameBeforeTheRequestWasOut() {
        var pieces = Self.requested()
        XCTAssertEqual(pieces.received([0, 90]), .none)
        XCTAssertEqual(pieces.received([0, 80, 0]), .none)
        XCTAssertEqual(pieces.received([0, 0, 0]), .established)
        var early = Machine(address: [127, 0, 0, 1], port: 80, userID: nil)
        _ = early.start()
        XCTAssertTrue(early.isSending)
        XCTAssertEqual(early.received(Self.reply()), .none, "held while the request is still going out")
        XCTAssertEqual(early.written(), .established)
    }

    func testBytesThatAreNoSOCKS4ReplyFail() {
        let malformed = TunnelAction.fail(.response(.malformedStartLine(offset: 0)))
        var http = Self.requested()
        XCTAssertEqual(http.received(ArraySlice("HTTP/1.1 400 Bad Request\r\n".utf8)), malformed, "an HTTP proxy")
        var socks5 = Self.requested()
        XCTAssertEqual(socks5.received([5, 0, 0, 1, 127, 0, 0, 1, 0, 80]), malformed, "a SOCKS5 proxy's answer")
        var trailing = Self.requested()
        XCTAssertEqual(trailing.received(Self.reply() + [0x16]), malformed, "bytes past the reply are no tunnel")
    }

    func testTheEndAFailedReadOrWriteAndTheTimerFail() {
        var closed = Self.requested()
        XCTAssertEqual(closed.received([0, 90, 0]), .none)
        XCTAssertEqual(closed.endOfStream(), .fail(.connectionLost(errno: nil)))
        var reset = Self.requested()
        XCTAssertEqual(reset.readFailed(errno: 104), .fail(.connectionLost(errno: 104)))
        var stuck = Machine(address: [127, 0, 0, 1], port: 80, userID: nil)
        _ = stuck.start()
        XCTAssertEqual(stuck.writeFailed(), .fail(.connectionLost(errno: nil)))
        var late = Self.requested()
        XCTAssertEqual(late.timerFired(), .fail(.timedOut(.connect)))
        XCTAssertEqual(late.state, .done)
    }

    func testWhatTheProtocolCannotCarryFailsBeforeAByteGoesOut() {
        var six = Machine(address: Array(repeating: 0, count: 15) + [1], port: 80, userID: nil)
        XCTAssertEqual(six.start(), .fail(.cannotConnect(errno: EAFNOSUPPORT)), "SOCKS4 carries no IPv6 address")
        var zeroInUser = Machine(address: [127, 0, 0, 1], port: 80, userID: "a\u{0}b")
        XCTAssertEqual(zeroInUser.start(), .fail(.proxyRefused(status: 407)), "a user ID ends at its first zero byte")
        XCTAssertEqual(six.state, .done)
    }
}
