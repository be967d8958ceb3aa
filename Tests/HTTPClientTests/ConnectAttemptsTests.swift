import Foundation
@testable import HTTPClient
import EventLoopIO
import XCTest

/// `ConnectAttempts`, opening a connection to one host, driven event by event as
/// `SocketExchange` drives it: no socket, no lookup, no timer.
final class ConnectAttemptsTests: XCTestCase {
    private typealias Attempts = ConnectAttempts

    /// A numeric address (read without a lookup).
    private func address(_ literal: String, port: UInt16 = 80) throws -> SocketAddress {
        try XCTUnwrap(SocketAddress.resolve(host: literal, port: port, numericOnly: true).first)
    }

    /// Attempts connecting (in progress) to the first of `addresses`, a literal.
    private func connecting(_ addresses: [SocketAddress]) -> Attempts {
        var attempts = Attempts()
        XCTAssertEqual(attempts.begin(literal: addresses), .startConnect(addresses[0]))
        XCTAssertEqual(attempts.started(inProgress: true), .awaitConnect)
        return attempts
    }

    // MARK: Literals and names

    func testALiteralConnectsWithoutALookup() throws {
        let first = try address("127.0.0.1")
        var attempts = Attempts()
        XCTAssertEqual(attempts.state, .idle)
        XCTAssertEqual(attempts.begin(literal: [first]), .startConnect(first))
        XCTAssertEqual(attempts.state, .connecting(index: 0))
        XCTAssertEqual(attempts.started(inProgress: false), .connected, "connected at once (as on loopback, sometimes)")
        XCTAssertEqual(attempts.state, .connected)

        var later = Attempts()
        _ = later.begin(literal: [first])
        XCTAssertEqual(later.started(inProgress: true), .awaitConnect)
        XCTAssertEqual(later.connectFinished(errno: 0), .connected)
        XCTAssertEqual(later.connectFinished(errno: 0), nil, "one outcome per connect")
        XCTAssertEqual(later.timerFired(), nil, "connected: the timer was cancelled, a late one changes nothing")
    }

    func testANameIsResolvedThenItsAddressesTried() throws {
        let (first, second) = (try address("::1"), try address("127.0.0.1"))
        var attempts = Attempts()
        XCTAssertEqual(attempts.begin(literal: nil), .resolve)
        XCTAssertEqual(attempts.state, .resolving)
        XCTAssertEqual(attempts.connectFinished(errno: 0), nil, "no connect is under way while resolving")
        XCTAssertEqual(attempts.resolved(.success([first, second])), .startConnect(first))
        XCTAssertEqual(attempts.addresses, [first, second])
        XCTAssertEqual(attempts.resolved(.success([second])), nil, "one lookup per connect")
        XCTAssertEqual(attempts.state, .connecting(index: 0))
    }

    // MARK: Trying each address

    func testTheFirstAddressRefusedThenTheSecondConnects() throws {
        let (first, second) = (try address("127.0.0.1"), try address("127.0.0.2"))
        var attempts = connecting([first, second])
        XCTAssertEqual(attempts.connectFinished(errno: ECONNREFUSED), .startConnect(second))
        XCTAssertEqual(attempts.state, .connecting(index: 1))
        XCTAssertEqual(attempts.started(inProgress: true), .awaitConnect)
        XCTAssertEqual(attempts.connectFinished(errno: 0), .connected)

        var atOnce = Attempts()
        _ = atOnce.begin(literal: [first, second])
        XCTAssertEqual(atOnce.startFailed(errno: ENETUNREACH), .startConnect(second), "refused before any wait")
        XCTAssertEqual(atOnce.started(inProgress: false), .connected)
    }

    func testAllAddressesRefusedIsCannotConnectWithTheLastErrno() throws {
        let (first, second) = (try address("::1"), try address("127.0.0.1"))
        var attempts = connecting([first, second])
        XCTAssertEqual(attempts.connectFinished(errno: ENETUNREACH), .startConnect(second))
        XCTAssertEqual(attempts.started(inProgress: true), .awaitConnect)
        XCTAssertEqual(attempts.connectFinished(errno: ECONNREFUSED), .fail(.cannotConnect(errno: ECONNREFUSED)))
        XCTAssertEqual(attempts.state, .ended)
        XCTAssertEqual(attempts.timerFired(), nil, "failed already")

        var atOnce = Attempts()
        _ = atOnce.begin(literal: [first, second])
        XCTAssertEqual(atOnce.startFailed(errno: EADDRNOTAVAIL), .startConnect(second))
        XCTAssertEqual(atOnce.startFailed(errno: nil), .fail(.cannotConnect(errno: EADDRNOTAVAIL)),
                       "a failure without an errno keeps the last one")

        var noErrnoAtAll = Attempts()
        _ = noErrnoAtAll.begin(literal: [first])
        XCTAssertEqual(noErrnoAtAll.startFailed(errno: nil), .fail(.cannotConnect(errno: ECONNREFUSED)))
    }

    // MARK: A failed lookup

    func testAFailedLookupIsCannotFindHostOrCannotConnect() {
        var unknown = Attempts()
        _ = unknown.begin(literal: nil)
        XCTAssertEqual(unknown.resolved(.failure(.addressResolution(host: "nowhere.invalid", code: EAI_NONAME))),
                       .fail(.cannotFindHost(code: EAI_NONAME)))
        XCTAssertEqual(unknown.state, .ended)

        var system = Attempts()
        _ = system.begin(literal: nil)
        XCTAssertEqual(system.resolved(.failure(.system(operation: .getaddrinfo, errno: EMFILE))), .fail(.cannotConnect(errno: EMFILE)))

        var other = Attempts()
        _ = other.begin(literal: nil)
        XCTAssertEqual(other.resolved(.failure(.closed)), .fail(.cannotConnect(errno: EHOSTUNREACH)), "no errno: unreachable")

        var empty = Attempts()
        _ = empty.begin(literal: nil)
        XCTAssertEqual(empty.resolved(.success([])), .fail(.cannotConnect(errno: ECONNREFUSED)), "no address to try")
    }

    // MARK: The connect timer

    func testTheConnectTimerFailsWhileResolvingOrOnAnyAddress() throws {
        let (first, second) = (try address("127.0.0.1"), try address("127.0.0.2"))
        var idle = Attempts()
        XCTAssertEqual(idle.timerFired(), nil, "nothing started")

        var resolving = Attempts()
        _ = resolving.begin(literal: nil)
        XCTAssertEqual(resolving.timerFired(), .fail(.timedOut))
        XCTAssertEqual(resolving.resolved(.success([first])), nil, "a lookup that ends after the timeout is dropped")

        var onTheSecond = connecting([first, second])
        XCTAssertEqual(onTheSecond.connectFinished(errno: ECONNREFUSED), .startConnect(second))
        XCTAssertEqual(onTheSecond.started(inProgress: true), .awaitConnect)
        XCTAssertEqual(onTheSecond.timerFired(), .fail(.timedOut), "one timer for all the addresses")
        XCTAssertEqual(onTheSecond.state, .ended)
        XCTAssertEqual(onTheSecond.connectFinished(errno: 0), nil, "a connect that ends after the timeout is dropped")
        XCTAssertEqual(onTheSecond.timerFired(), nil, "once")
    }

    // MARK: The exchange ending first

    func testCancelWhileResolvingOrConnectingDropsTheOutcome() throws {
        let first = try address("127.0.0.1")
        var resolving = Attempts()
        _ = resolving.begin(literal: nil)
        resolving.abandon()
        XCTAssertEqual(resolving.resolved(.success([first])), nil)
        XCTAssertEqual(resolving.timerFired(), nil)

        var cancelledElsewhere = Attempts()
        _ = cancelledElsewhere.begin(literal: nil)
        XCTAssertEqual(cancelledElsewhere.resolved(.success([first]), cancelled: true), nil,
                       "cancelled on another thread before the loop heard of it")
        XCTAssertEqual(cancelledElsewhere.state, .ended)

        var starting = Attempts()
        _ = starting.begin(literal: [first])
        starting.abandon()
        XCTAssertEqual(starting.started(inProgress: true), nil)
        XCTAssertEqual(starting.startFailed(errno: ECONNREFUSED), nil)

        var underWay = connecting([first])
        underWay.abandon()
        XCTAssertEqual(underWay.connectFinished(errno: 0), nil)
        XCTAssertEqual(underWay.connectFinished(errno: ECONNREFUSED), nil)
        XCTAssertEqual(underWay.timerFired(), nil)
    }
}
