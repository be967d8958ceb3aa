import Foundation
@testable import HTTPClient
import EventLoopIO
import XCTest

/// `ConnectAttempts`, opening one connection to a host with Happy Eyeballs (RFC 8305), driven
/// event by event as `ConnectionOpener` drives it: no socket, no lookup, no timer. Events its
/// driver cannot produce (a closed attempt reporting, a timer after the connect is decided) stop
/// it with a `preconditionFailure`, so only the events that can happen are fed here.
final class ConnectAttemptsTests: XCTestCase {
    private typealias Attempts = ConnectAttempts

    /// A numeric address (read without a lookup).
    private func address(_ literal: String, port: UInt16 = 80) throws -> SocketAddress {
        try XCTUnwrap(SocketAddress.resolve(host: literal, port: port, numericOnly: true).first)
    }

    /// `count` distinct loopback addresses, 127.0.0.1 on.
    private func addresses(_ count: Int) throws -> [SocketAddress] {
        try (1...count).map { try address("127.0.0.\($0)") }
    }

    /// Attempts given `list` as a literal, the first attempt started and awaited by the kernel.
    private func connecting(_ list: [SocketAddress]) -> Attempts {
        var attempts = Attempts()
        XCTAssertEqual(attempts.begin(literal: list), .start(list[0], index: 0))
        XCTAssertEqual(attempts.started(index: 0, inProgress: true), .await(index: 0, staggerNext: list.count > 1))
        return attempts
    }

    /// `connecting(list)` with the stagger timer fired once: attempts 0 and 1 both under way.
    private func twoInFlight(_ list: [SocketAddress]) -> Attempts {
        var attempts = connecting(list)
        XCTAssertEqual(attempts.staggerTimerFired(), .start(list[1], index: 1))
        XCTAssertEqual(attempts.started(index: 1, inProgress: true), .await(index: 1, staggerNext: list.count > 2))
        XCTAssertEqual(attempts.pending, [0, 1])
        return attempts
    }

    // MARK: Literals and names

    /// A literal is tried at once, without a lookup; a connect finished at once or later wins,
    /// one outcome per attempt, and a single address arms no stagger timer.
    func testALiteralConnectsWithoutALookup() throws {
        let first = try address("127.0.0.1")
        var attempts = Attempts()
        XCTAssertEqual(attempts.state, .idle)
        XCTAssertEqual(attempts.begin(literal: [first]), .start(first, index: 0))
        XCTAssertEqual(attempts.state, .connecting)
        XCTAssertEqual(attempts.started(index: 0, inProgress: false), .connected(index: 0), "connected at once (as on loopback, sometimes)")
        XCTAssertEqual(attempts.state, .connected(index: 0))

        var later = Attempts()
        _ = later.begin(literal: [first])
        XCTAssertEqual(later.started(index: 0, inProgress: true), .await(index: 0, staggerNext: false), "no other address to stagger")
        XCTAssertEqual(later.finished(index: 0, errno: 0), .connected(index: 0))
        XCTAssertEqual(later.state, .connected(index: 0))
    }

    /// A name is looked up first, once; its addresses are then tried in the order given.
    func testANameIsResolvedThenItsAddressesTried() throws {
        let (first, second) = (try address("::1"), try address("127.0.0.1"))
        var attempts = Attempts()
        XCTAssertEqual(attempts.begin(literal: nil), .resolve)
        XCTAssertEqual(attempts.state, .resolving)
        XCTAssertEqual(attempts.resolved(.success([first, second])), .start(first, index: 0))
        XCTAssertEqual(attempts.addresses, [first, second])
        XCTAssertEqual(attempts.state, .connecting)
        XCTAssertEqual(attempts.pending, [0])
    }

    // MARK: Trying each address

    /// A refused address moves to the next at once, whether it failed later or on starting.
    func testARefusedAddressMovesToTheNext() throws {
        let list = try addresses(2)
        var attempts = connecting(list)
        XCTAssertEqual(attempts.finished(index: 0, errno: ECONNREFUSED), .start(list[1], index: 1))
        XCTAssertEqual(attempts.pending, [1])
        XCTAssertEqual(attempts.started(index: 1, inProgress: true), .await(index: 1, staggerNext: false))
        XCTAssertEqual(attempts.finished(index: 1, errno: 0), .connected(index: 1))

        var atOnce = Attempts()
        _ = atOnce.begin(literal: list)
        XCTAssertEqual(atOnce.startFailed(index: 0, errno: ENETUNREACH), .start(list[1], index: 1), "refused before any wait")
        XCTAssertEqual(atOnce.started(index: 1, inProgress: false), .connected(index: 1))
    }

    /// The log keeps each attempt's address, start, end and outcome at the instants the events
    /// gave: a refused one, one abandoned when another won, the winner; and on a timeout those
    /// still under way.
    func testTheLogKeepsEachAttemptsInstantsAndOutcome() throws {
        let list = try addresses(3)
        let t0 = MonotonicTime.now
        func at(_ ms: Int) -> MonotonicTime { t0 + .milliseconds(ms) }
        var attempts = Attempts()
        XCTAssertEqual(attempts.begin(literal: list, at: at(0)), .start(list[0], index: 0))
        XCTAssertEqual(attempts.started(index: 0, inProgress: true, at: at(1)), .await(index: 0, staggerNext: true))
        XCTAssertEqual(attempts.staggerTimerFired(at: at(250)), .start(list[1], index: 1))
        XCTAssertEqual(attempts.started(index: 1, inProgress: true, at: at(251)), .await(index: 1, staggerNext: true))
        XCTAssertEqual(attempts.finished(index: 1, errno: ECONNREFUSED, at: at(260)), .start(list[2], index: 2))
        XCTAssertEqual(attempts.started(index: 2, inProgress: true, at: at(261)), .await(index: 2, staggerNext: false))
        XCTAssertEqual(attempts.finished(index: 2, errno: 0, at: at(270)), .connected(index: 2))
        XCTAssertEqual(attempts.log, [
            .init(address: list[0].description, startedAt: at(0), endedAt: at(270), outcome: .abandoned),
            .init(address: list[1].description, startedAt: at(250), endedAt: at(260), outcome: .failed(errno: ECONNREFUSED)),
            .init(address: list[2].description, startedAt: at(260), endedAt: at(270), outcome: .connected),
        ])

        var timedOut = Attempts()
        _ = timedOut.begin(literal: [list[0]], at: at(0))
        _ = timedOut.started(index: 0, inProgress: true, at: at(0))
        XCTAssertEqual(timedOut.timerFired(at: at(800)), .fail(.timedOut(.connect)))
        XCTAssertEqual(timedOut.log, [.init(address: list[0].description, startedAt: at(0), endedAt: at(800), outcome: .timedOut)])
    }

    /// Every address refused is `cannotConnect` with the last errno (one kept when a failure
    /// has none, ECONNREFUSED when none ever had one); nothing follows.
    func testAllAddressesRefusedIsCannotConnectWithTheLastErrno() throws {
        let (first, second) = (try address("::1"), try address("127.0.0.1"))
        var attempts = connecting([first, second])
        XCTAssertEqual(attempts.finished(index: 0, errno: ENETUNREACH), .start(second, index: 1))
        XCTAssertEqual(attempts.started(index: 1, inProgress: true), .await(index: 1, staggerNext: false))
        XCTAssertEqual(attempts.finished(index: 1, errno: ECONNREFUSED), .fail(.cannotConnect(errno: ECONNREFUSED)))
        XCTAssertEqual(attempts.state, .ended)

        var atOnce = Attempts()
        _ = atOnce.begin(literal: [first, second])
        XCTAssertEqual(atOnce.startFailed(index: 0, errno: EADDRNOTAVAIL), .start(second, index: 1))
        XCTAssertEqual(atOnce.startFailed(index: 1, errno: nil), .fail(.cannotConnect(errno: EADDRNOTAVAIL)),
                       "a failure without an errno keeps the last one")

        var noErrnoAtAll = Attempts()
        _ = noErrnoAtAll.begin(literal: [first])
        XCTAssertEqual(noErrnoAtAll.startFailed(index: 0, errno: nil), .fail(.cannotConnect(errno: ECONNREFUSED)))
    }

    // MARK: A failed lookup

    /// A name that does not resolve is `cannotFindHost` with its code; other lookup failures,
    /// and a lookup with no address, are `cannotConnect`.
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
        XCTAssertEqual(empty.state, .ended)
    }

    // MARK: The connect timer

    /// One connect timer bounds the lookup and every attempt: it fails with `timedOut(.connect)`
    /// while resolving or connecting, once, and what ends after it is dropped.
    func testTheConnectTimerFailsWhileResolvingOrConnecting() throws {
        let list = try addresses(3)
        var resolving = Attempts()
        _ = resolving.begin(literal: nil)
        XCTAssertEqual(resolving.timerFired(), .fail(.timedOut(.connect)))
        XCTAssertEqual(resolving.resolved(.success([list[0]])), .none, "a lookup that ends after the timeout is dropped")

        var onTheSecond = connecting(list)
        XCTAssertEqual(onTheSecond.finished(index: 0, errno: ECONNREFUSED), .start(list[1], index: 1))
        XCTAssertEqual(onTheSecond.started(index: 1, inProgress: true), .await(index: 1, staggerNext: true))
        XCTAssertEqual(onTheSecond.timerFired(), .fail(.timedOut(.connect)), "one timer for all the addresses")
        XCTAssertEqual(onTheSecond.state, .ended)
        XCTAssertEqual(onTheSecond.pending, [], "the driver closes every attempt: none reports later")

        var twoUnderWay = twoInFlight(list)
        XCTAssertEqual(twoUnderWay.timerFired(), .fail(.timedOut(.connect)))
        XCTAssertEqual(twoUnderWay.pending, [])
    }

    // MARK: Happy Eyeballs

    /// With several addresses each attempt awaited arms the stagger timer, and the timer starts
    /// the next address beside the ones under way (the last address arms none).
    func testTheStaggerTimerStartsTheNextAddressBesideTheFirst() throws {
        let list = try addresses(3)
        var attempts = connecting(list)
        XCTAssertEqual(attempts.staggerTimerFired(), .start(list[1], index: 1), "without waiting for the first to fail")
        XCTAssertEqual(attempts.pending, [0, 1], "the first keeps running")
        XCTAssertEqual(attempts.started(index: 1, inProgress: true), .await(index: 1, staggerNext: true))
        XCTAssertEqual(attempts.staggerTimerFired(), .start(list[2], index: 2))
        XCTAssertEqual(attempts.started(index: 2, inProgress: true), .await(index: 2, staggerNext: false), "the last address")
        XCTAssertEqual(attempts.pending, [0, 1, 2])
        XCTAssertEqual(attempts.state, .connecting)
    }

    /// The families take turns, the first address's first, each family in the order the lookup
    /// gave (RFC 8305 §4): an IPv4 address is the second attempt, not the last.
    func testTheAddressFamiliesTakeTurns() throws {
        let v6 = [try address("::1", port: 1), try address("::1", port: 2), try address("::1", port: 3)]
        let v4 = [try address("127.0.0.1", port: 4), try address("127.0.0.1", port: 5)]
        XCTAssertEqual(ConnectAttempts.interleavingFamilies(v6 + v4), [v6[0], v4[0], v6[1], v4[1], v6[2]])
        XCTAssertEqual(ConnectAttempts.interleavingFamilies(v4 + v6), [v4[0], v6[0], v4[1], v6[1], v6[2]])
        XCTAssertEqual(ConnectAttempts.interleavingFamilies([v6[0], v4[0], v4[1], v6[1]]), [v6[0], v4[0], v6[1], v4[1]])
        XCTAssertEqual(ConnectAttempts.interleavingFamilies(v6), v6, "one family keeps its order")
        var attempts = Attempts()
        XCTAssertEqual(attempts.begin(literal: nil), .resolve)
        XCTAssertEqual(attempts.resolved(.success(v6 + v4)), .start(v6[0], index: 0))
        XCTAssertEqual(attempts.started(index: 0, inProgress: true), .await(index: 0, staggerNext: true))
        XCTAssertEqual(attempts.staggerTimerFired(), .start(v4[0], index: 1), "the other family's first address comes second")
    }

    /// A failure starts the next address at once, and that attempt arms the stagger timer anew.
    func testAFailureStartsTheNextAddressAtOnce() throws {
        let list = try addresses(3)
        var attempts = connecting(list)
        XCTAssertEqual(attempts.finished(index: 0, errno: ECONNREFUSED), .start(list[1], index: 1), "before the stagger timer")
        XCTAssertEqual(attempts.started(index: 1, inProgress: true), .await(index: 1, staggerNext: true))
        XCTAssertEqual(attempts.pending, [1])
        XCTAssertEqual(attempts.finished(index: 1, errno: ECONNREFUSED), .start(list[2], index: 2))
        XCTAssertEqual(attempts.started(index: 2, inProgress: true), .await(index: 2, staggerNext: false))
        XCTAssertEqual(attempts.staggerTimerFired(), .none, "the timer armed for the first fires with nothing left to start")

        var besideAnother = connecting(list)
        XCTAssertEqual(besideAnother.staggerTimerFired(), .start(list[1], index: 1))
        XCTAssertEqual(besideAnother.startFailed(index: 1, errno: EADDRNOTAVAIL), .start(list[2], index: 2),
                       "a start refused beside a running attempt moves on at once")
        XCTAssertEqual(besideAnother.pending, [0, 2])
    }

    /// Of two attempts in flight the first to connect wins, whichever it is; the other's later
    /// outcome is ignored (the driver closed its socket) and nothing else starts.
    func testTheFirstOfTwoInFlightToConnectWins() throws {
        let list = try addresses(3)
        var second = twoInFlight(list)
        XCTAssertEqual(second.finished(index: 1, errno: 0), .connected(index: 1))
        XCTAssertEqual(second.state, .connected(index: 1))
        XCTAssertEqual(second.pending, [], "the slower attempt is closed by the driver")

        var first = twoInFlight(list)
        XCTAssertEqual(first.finished(index: 0, errno: 0), .connected(index: 0))
        XCTAssertEqual(first.state, .connected(index: 0))

        var atOnce = twoInFlight(list)
        XCTAssertEqual(atOnce.staggerTimerFired(), .start(list[2], index: 2))
        XCTAssertEqual(atOnce.started(index: 2, inProgress: false), .connected(index: 2), "connected on starting, beside two in flight")
    }

    /// The last address failing while an earlier attempt is still pending waits for it: that
    /// one may still connect, or fail with the errno reported.
    func testTheLastFailingWhileAnotherIsPendingWaitsForIt() throws {
        let list = try addresses(2)
        var connects = twoInFlight(list)
        XCTAssertEqual(connects.finished(index: 1, errno: EHOSTUNREACH), .none, "attempt 0 still runs")
        XCTAssertEqual(connects.state, .connecting)
        XCTAssertEqual(connects.pending, [0])
        XCTAssertEqual(connects.finished(index: 0, errno: 0), .connected(index: 0))

        var fails = connecting(list)
        XCTAssertEqual(fails.staggerTimerFired(), .start(list[1], index: 1))
        XCTAssertEqual(fails.startFailed(index: 1, errno: EADDRNOTAVAIL), .none, "refused on starting, attempt 0 still runs")
        XCTAssertEqual(fails.finished(index: 0, errno: ETIMEDOUT), .fail(.cannotConnect(errno: ETIMEDOUT)))
        XCTAssertEqual(fails.state, .ended)
    }

    /// Every attempt in flight failing reports `cannotConnect` with the last one's errno, only
    /// when the last of them fails.
    func testAllInFlightFailingReportsTheLastErrno() throws {
        let list = try addresses(3)
        var attempts = twoInFlight(list)
        XCTAssertEqual(attempts.staggerTimerFired(), .start(list[2], index: 2))
        XCTAssertEqual(attempts.started(index: 2, inProgress: true), .await(index: 2, staggerNext: false))
        XCTAssertEqual(attempts.finished(index: 2, errno: ENETUNREACH), .none)
        XCTAssertEqual(attempts.finished(index: 0, errno: ETIMEDOUT), .none)
        XCTAssertEqual(attempts.lastErrno, ETIMEDOUT)
        XCTAssertEqual(attempts.finished(index: 1, errno: ECONNREFUSED), .fail(.cannotConnect(errno: ECONNREFUSED)))
        XCTAssertEqual(attempts.state, .ended)
    }

    // MARK: A lookup outliving the connect

    /// The lookup runs off the loop and may end after the connect timer failed the connect: its
    /// result is dropped. It is the one event that can come late.
    func testALookupEndingAfterTheTimeoutIsDropped() throws {
        let list = try addresses(2)
        var resolving = Attempts()
        _ = resolving.begin(literal: nil)
        XCTAssertEqual(resolving.timerFired(), .fail(.timedOut(.connect)))
        XCTAssertEqual(resolving.resolved(.success(list)), .none)
        XCTAssertEqual(resolving.resolved(.failure(.addressResolution(host: "a.test", code: EAI_NONAME))), .none)
        XCTAssertEqual(resolving.state, .ended)
    }
}
