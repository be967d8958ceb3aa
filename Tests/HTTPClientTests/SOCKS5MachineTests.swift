import EventLoopIO
@testable import HTTPClient
import XCTest

/// `SOCKS5Machine`'s messages (RFC 1928, RFC 1929) byte by byte, and its decisions on every
/// answer a proxy can give, whole or in pieces.
final class SOCKS5MachineTests: XCTestCase {
    private typealias Machine = SOCKS5Machine

    /// A reply to `CONNECT`: success (or `code`) with an IPv4 bound address.
    private static func reply(_ code: UInt8 = 0) -> ArraySlice<UInt8> { [5, code, 0, 1, 127, 0, 0, 1, 0x1F, 0x90] }

    private static func greeted(_ credentials: (user: String, password: String)? = nil,
                                to destination: Machine.Destination = .name("api.test")) -> Machine {
        var machine = Machine(destination: destination, port: 443, credentials: credentials)
        _ = machine.start()
        XCTAssertEqual(machine.written(), .awaitAnswer)
        return machine
    }

    /// Brought to `awaitingReply` with no authentication.
    private static func requested() -> Machine {
        var machine = greeted()
        XCTAssertEqual(machine.received([5, 0]), .write(machine.request))
        XCTAssertEqual(machine.written(), .awaitAnswer)
        return machine
    }

    func testTheGreetingOffersCredentialsOnlyWhenTheURLHasThem() {
        var bare = Machine(destination: .name("a.test"), port: 80, credentials: nil)
        XCTAssertEqual(bare.start(), .write([5, 1, 0]))
        XCTAssertEqual(bare.state, .sendingGreeting)
        var withUser = Machine(destination: .name("a.test"), port: 80, credentials: ("u", "p"))
        XCTAssertEqual(withUser.start(), .write([5, 2, 0, 2]))
    }

    func testTheRequestNamesTheOriginByNameOrByAddressWithThePort() {
        XCTAssertEqual(Machine(destination: .name("api.test"), port: 443, credentials: nil).request,
                       [5, 1, 0, 3, 8] + Array("api.test".utf8) + [1, 0xBB])
        XCTAssertEqual(Machine(destination: .address([127, 0, 0, 1]), port: 8080, credentials: nil).request,
                       [5, 1, 0, 1, 127, 0, 0, 1, 0x1F, 0x90])
        let loopback6: [UInt8] = Array(repeating: 0, count: 15) + [1]
        XCTAssertEqual(Machine(destination: .address(loopback6), port: 80, credentials: nil).request, [5, 1, 0, 4] + loopback6 + [0, 80])
    }

    func testNoAuthenticationThenASuccessfulReplyOpensTheTunnel() {
        var machine = Self.requested()
        XCTAssertEqual(machine.received(Self.reply()), .established)
        XCTAssertEqual(machine.state, .done)
        XCTAssertFalse(machine.isNegotiating)
    }

    func testCredentialsGoWhenTheProxyAsksForThem() {
        var machine = Self.greeted(("us@er", "pässword"))
        let message: [UInt8] = [1, 5] + Array("us@er".utf8) + [9] + Array("pässword".utf8)
        XCTAssertEqual(machine.received([5, 2]), .write(message))
        XCTAssertEqual(machine.state, .sendingCredentials)
        XCTAssertEqual(machine.written(), .awaitAnswer)
        XCTAssertEqual(machine.received([1, 0]), .write(machine.request))
        XCTAssertEqual(machine.written(), .awaitAnswer)
        XCTAssertEqual(machine.received(Self.reply()), .established)
    }

    func testRefusedCredentialsOrNoneWhereSomeAreWantedAre407() {
        var refused = Self.greeted(("u", "wrong"))
        _ = refused.received([5, 2])
        _ = refused.written()
        XCTAssertEqual(refused.received([1, 1]), .fail(.proxyRefused(status: 407)))
        var noMethod = Self.greeted()
        XCTAssertEqual(noMethod.received([5, 0xFF]), .fail(.proxyRefused(status: 407)), "no acceptable method")
        var unasked = Self.greeted()
        XCTAssertEqual(unasked.received([5, 2]), .fail(.response(.malformedStartLine(offset: 0))), "a method not offered")
    }

    func testARefusedConnectCarriesTheReplyCode() {
        for code: UInt8 in 1...8 {
            var machine = Self.requested()
            XCTAssertEqual(machine.received([5, code]), .fail(.proxyRefused(status: Int(code))), "\(code)")
        }
    }

    func testRepliesInPiecesWithEachKindOfBoundAddress() {
        var pieces = Self.requested()
        XCTAssertEqual(pieces.received([5]), .none)
        XCTAssertEqual(pieces.received([0, 0, 1, 10, 0]), .none)
        XCTAssertEqual(pieces.received([0, 1, 0]), .none)
        XCTAssertEqual(pieces.received([80]), .established)
        var named = Self.requested()
        XCTAssertEqual(named.received([5, 0, 0, 3, 4] + Array("host".utf8) + [0, 80]), .established)
        var six = Self.requested()
        XCTAssertEqual(six.received([5, 0, 0, 4] + Array(repeating: 0, count: 16) + [0, 80]), .established)
        var unknownType = Self.requested()
        XCTAssertEqual(unknownType.received([5, 0, 0, 9, 0, 0]), .fail(.response(.malformedStartLine(offset: 0))))
    }

    func testAnAnswerThatCameBeforeItsMessageWasOutIsUsedAfter() {
        var machine = Machine(destination: .name("a.test"), port: 80, credentials: nil)
        _ = machine.start()
        XCTAssertEqual(machine.received([5, 0]), .none, "held while the greeting is still going out")
        XCTAssertEqual(machine.written(), .write(machine.request))
    }

    func testBytesThatAreNoSOCKS5AnswerFail() {
        let malformed = TunnelAction.fail(.response(.malformedStartLine(offset: 0)))
        var http = Self.greeted()
        XCTAssertEqual(http.received(ArraySlice("HTTP/1.1 400 Bad Request\r\n".utf8)), malformed, "an HTTP proxy")
        var extra = Self.greeted()
        XCTAssertEqual(extra.received([5, 0, 1]), malformed, "more than the method's answer")
        var trailing = Self.requested()
        XCTAssertEqual(trailing.received(Self.reply() + [0x16]), malformed, "bytes past the reply are no tunnel")
        var wrongVersion = Self.requested()
        XCTAssertEqual(wrongVersion.received([4, 0, 0, 1, 0, 0, 0, 0, 0, 0]), malformed)
    }

    func testTheEndAFailedReadOrWriteAndTheTimerFail() {
        var closed = Self.requested()
        XCTAssertEqual(closed.received([5, 0]), .none)
        XCTAssertEqual(closed.endOfStream(), .fail(.connectionLost(errno: nil)))
        var reset = Self.greeted()
        XCTAssertEqual(reset.readFailed(errno: 104), .fail(.connectionLost(errno: 104)))
        var stuck = Machine(destination: .name("a.test"), port: 80, credentials: nil)
        _ = stuck.start()
        XCTAssertTrue(stuck.isSending)
        XCTAssertEqual(stuck.writeFailed(), .fail(.connectionLost(errno: nil)))
        var late = Self.greeted(("u", "p"))
        XCTAssertEqual(late.timerFired(), .fail(.timedOut(.connect)))
    }

    func testWhatTheProtocolCannotCarryFailsBeforeAByteGoesOut() {
        var longName = Machine(destination: .name(String(repeating: "a", count: 256)), port: 80, credentials: nil)
        XCTAssertEqual(longName.start(), .fail(.invalidURL(unsupportedScheme: false)))
        var badAddress = Machine(destination: .address([1, 2, 3]), port: 80, credentials: nil)
        XCTAssertEqual(badAddress.start(), .fail(.invalidURL(unsupportedScheme: false)))
        XCTAssertEqual(longName.state, .done)
    }

    /// curl checks RFC 1929's lengths when the proxy asks for the credentials (its
    /// CONNECT_AUTH_INIT step): a proxy that needs none takes the request whatever they are.
    func testCredentialsRFC1929CannotCarryFailOnlyWhenTheProxyAsksForThem() {
        for credentials in [("u", String(repeating: "p", count: 256)), (String(repeating: "u", count: 256), "p"), ("", "p")] {
            var asked = Self.greeted(credentials)
            XCTAssertEqual(asked.received([5, 2]), .fail(.proxyRefused(status: 407)), "refused, never cut")
            XCTAssertEqual(asked.state, .done)
            var unasked = Self.greeted(credentials)
            XCTAssertEqual(unasked.received([5, 0]), .write(unasked.request), "no authentication")
        }
        var longest = Self.greeted((String(repeating: "u", count: 255), String(repeating: "p", count: 255)))
        XCTAssertEqual(longest.received([5, 2]), .write([1, 255] + Array(repeating: UInt8(ascii: "u"), count: 255)
                                                        + [255] + Array(repeating: UInt8(ascii: "p"), count: 255)))
    }

    func testAResolvedAddressBecomesItsBytes() throws {
        let four = try XCTUnwrap(SocketAddress.resolve(host: "127.0.0.1", port: 80, numericOnly: true).first)
        XCTAssertEqual(Machine.Destination(four), .address([127, 0, 0, 1]))
        let six = try XCTUnwrap(SocketAddress.resolve(host: "::1", port: 443, numericOnly: true).first)
        XCTAssertEqual(Machine.Destination(six), .address(Array(repeating: 0, count: 15) + [1]))
    }
}
