import Foundation
@testable import HTTPClient
import HTTPWire
import XCTest

/// `ExchangeStateMachine`, the exchange's decisions, driven event by event as `SocketExchange`
/// drives it: no socket, no loop, no timer.
final class ExchangeStateMachineTests: XCTestCase {
    private typealias Machine = ExchangeStateMachine

    private func machine(idempotent: Bool = true, maximumRedirects: Int = 5, downloadsToFile: Bool = false) -> Machine {
        Machine(idempotent: idempotent, maximumRedirects: maximumRedirects, downloadsToFile: downloadsToFile)
    }

    /// A machine whose request went out on a connection of `lease`'s kind (open when kept).
    private func sent(_ lease: Machine.Lease = .fresh, idempotent: Bool = true, asksToClose: Bool = false,
                      maximumRedirects: Int = 5, downloadsToFile: Bool = false) -> Machine {
        var exchange = machine(idempotent: idempotent, maximumRedirects: maximumRedirects, downloadsToFile: downloadsToFile)
        exchange.waiting()
        _ = exchange.leased(lease) { false }
        exchange.requestPrepared(asksToClose: asksToClose)
        XCTAssertEqual(exchange.requestWritten(), .awaitAnswer)
        return exchange
    }

    // MARK: Leases

    func testEachLeaseConnectsOrSends() {
        var fresh = machine()
        fresh.waiting()
        XCTAssertEqual(fresh.leased(.fresh) { XCTFail("a slot has no connection to poll"); return false }, .connect)
        XCTAssertEqual(fresh.phase, .connecting)
        XCTAssertTrue(fresh.holdsSlot)

        var kept = machine()
        kept.waiting()
        XCTAssertEqual(kept.leased(.reused) { false }, .send)
        XCTAssertTrue(kept.reused)

        var stale = machine()
        stale.waiting()
        XCTAssertEqual(stale.leased(.reused) { true }, .closeStaleAndConnect, "closed while idle in the pool")
        XCTAssertFalse(stale.reused)

        var handed = machine()
        handed.waiting()
        XCTAssertEqual(handed.leased(.handedOver) { XCTFail("not polled for an idempotent request"); return true }, .send)

        var post = machine(idempotent: false)
        post.waiting()
        XCTAssertEqual(post.leased(.handedOver) { true }, .closeStaleAndConnect, "a POST is never sent on a closed connection")
    }

    func testAConnectionConnectsThenTakesTheRequest() {
        var exchange = machine()
        exchange.waiting()
        XCTAssertEqual(exchange.writable(), nil, "no socket is watched while waiting")
        _ = exchange.leased(.fresh) { false }
        XCTAssertEqual(exchange.writable(), .finishConnect)
        XCTAssertEqual(exchange.connected(), .send)
        exchange.requestPrepared(asksToClose: false)
        XCTAssertEqual(exchange.connected(), nil, "a late connect outcome is ignored")
        XCTAssertEqual(exchange.writable(), .writeMore)
        _ = exchange.requestWritten()
        XCTAssertEqual(exchange.writable(), nil, "only the answer is awaited")
    }

    func testALeaseAfterCancelGoesBackUnused() {
        var cancelledOnItsLoop = machine()
        cancelledOnItsLoop.waiting()
        XCTAssertEqual(cancelledOnItsLoop.cancel(), .tearDown)
        XCTAssertEqual(cancelledOnItsLoop.leased(.fresh) { false }, .returnLease)

        var cancelledElsewhere = machine()
        cancelledElsewhere.waiting()
        XCTAssertEqual(cancelledElsewhere.leased(.fresh, cancelled: true) { false }, .returnLease)
        XCTAssertFalse(cancelledElsewhere.holdsSlot)
    }

    // MARK: A stale kept-alive connection

    func testAStaleKeptConnectionIsRetriedOnceOnAFreshOne() {
        var exchange = sent(.reused)
        XCTAssertEqual(exchange.endOfStream(.failure(.truncatedHead(received: 0)), redirectIdempotent: nil), [.retryOnFreshConnection])
        XCTAssertEqual(exchange.phase, .connecting)
        XCTAssertFalse(exchange.reused)
        exchange.requestPrepared(asksToClose: false)
        XCTAssertEqual(exchange.attempt, 2)
        _ = exchange.requestWritten()
        XCTAssertEqual(exchange.endOfStream(.failure(.truncatedHead(received: 0)), redirectIdempotent: nil),
                       [.fail(.response(.truncatedHead(received: 0)))], "only once")
    }

    func testAResetKeptConnectionIsRetriedButNotAfterAByte() {
        var reset = sent(.handedOver)
        XCTAssertEqual(reset.readFailed(errno: ECONNRESET), .retryOnFreshConnection)

        var answered = sent(.reused)
        answered.bytesRead()
        XCTAssertEqual(answered.readFailed(errno: ECONNRESET), .fail(.connectionLost(errno: ECONNRESET)))
        var cut = sent(.reused)
        cut.bytesRead()
        XCTAssertEqual(cut.endOfStream(.failure(.truncatedHead(received: 0)), redirectIdempotent: nil),
                       [.fail(.response(.truncatedHead(received: 0)))])
    }

    func testOnlyIdempotentRequestsOnKeptConnectionsAreRetried() {
        var post = sent(.reused, idempotent: false)
        XCTAssertEqual(post.readFailed(errno: ECONNRESET), .fail(.connectionLost(errno: ECONNRESET)))
        var fresh = sent(.fresh)
        XCTAssertEqual(fresh.readFailed(errno: ECONNRESET), .fail(.connectionLost(errno: ECONNRESET)))
    }

    // MARK: An early answer during an upload

    func testAnEarly413DuringAnUploadIsDeliveredAndItsConnectionClosed() {
        var exchange = machine(idempotent: false)
        exchange.waiting()
        XCTAssertEqual(exchange.leased(.fresh) { false }, .connect)
        exchange.requestPrepared(asksToClose: false)
        XCTAssertEqual(exchange.writeFailed(errno: EPIPE), .readAfterFailedWrite)
        XCTAssertEqual(exchange.phase, .receiving)
        exchange.bytesRead()
        let reusable = exchange.reusable(keepAlive: true, status: 413, leftoverBytes: false)
        XCTAssertFalse(reusable, "the request was not all sent: the connection is out of step")
        XCTAssertEqual(exchange.completed(reusable: reusable, redirectIdempotent: nil), [.giveBack(reusable: false), .deliver(decodesBody: true)])
    }

    func testAFailedWriteWithoutAnAnswerReportsTheWritesError() {
        var silent = sent()
        XCTAssertEqual(silent.readFoundNothing(), nil, "a read that finds nothing while the request is healthy waits")
        _ = silent.writeFailed(errno: EPIPE)
        XCTAssertEqual(silent.readFoundNothing(), .fail(.connectionLost(errno: EPIPE)))
        var reset = sent()
        _ = reset.writeFailed(errno: EPIPE)
        XCTAssertEqual(reset.readFailed(errno: ECONNRESET), .fail(.connectionLost(errno: EPIPE)))
        var closed = sent()
        _ = closed.writeFailed(errno: EPIPE)
        XCTAssertEqual(closed.endOfStream(.failure(.truncatedHead(received: 0)), redirectIdempotent: nil), [.fail(.connectionLost(errno: EPIPE))])
    }

    // MARK: Redirects

    func testARedirectChainIsFollowedUpToTheLimit() {
        var exchange = sent(idempotent: false, maximumRedirects: 2)
        XCTAssertEqual(exchange.completed(reusable: true, redirectIdempotent: true), [.giveBack(reusable: true), .followRedirect])
        XCTAssertTrue(exchange.idempotent, "a POST moved by 303 continues as a GET")
        exchange.gaveBack()
        XCTAssertEqual(exchange.phase, .idle)
        XCTAssertFalse(exchange.holdsSlot)
        exchange.waiting()
        _ = exchange.leased(.reused) { false }
        exchange.requestPrepared(asksToClose: false)
        XCTAssertEqual(exchange.completed(reusable: false, redirectIdempotent: true), [.giveBack(reusable: false), .followRedirect])
        XCTAssertEqual(exchange.redirects, 2)
        XCTAssertEqual(exchange.completed(reusable: true, redirectIdempotent: true), [.giveBack(reusable: true), .refuseRedirect(count: 3)])
        XCTAssertEqual(exchange.redirects, 2)
    }

    func testARedirectDelimitedByTheCloseIsFollowedToo() {
        var exchange = sent()
        XCTAssertEqual(exchange.endOfStream(.success(()), redirectIdempotent: true), [.giveBack(reusable: false), .followRedirect])
        var none = sent(maximumRedirects: 0)
        XCTAssertEqual(none.completed(reusable: true, redirectIdempotent: false), [.giveBack(reusable: true), .refuseRedirect(count: 1)])
    }

    // MARK: Bodies: gzip and downloads

    func testAnInMemoryBodyAsksForGzipAndIsDecoded() throws {
        var exchange = sent()
        XCTAssertTrue(exchange.acceptsCompression)
        let actions = exchange.completed(reusable: true, redirectIdempotent: nil)
        XCTAssertEqual(actions, [.giveBack(reusable: true), .deliver(decodesBody: true)])
        // What `.deliver(decodesBody: true)` does with a gzip body.
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../HTTPWireTests/Fixtures/compression")
        let zipped = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("plain.gzip-1.gz")))
        let plain = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("plain.txt")))
        var headers = HTTPHeaders()
        headers.add(name: "Content-Encoding", value: "gzip")
        XCTAssertEqual(try ContentDecoding.decode(zipped, headers: headers, limit: 1 << 24).get(), plain)
    }

    func testADownloadGoesToItsFileUndecodedAndARedirectsBodyIsDropped() {
        var exchange = sent(downloadsToFile: true)
        XCTAssertFalse(exchange.acceptsCompression, "a file gets the bytes as sent")
        XCTAssertFalse(exchange.bodyGoesToFile(headIsFollowedRedirect: true))
        XCTAssertTrue(exchange.bodyGoesToFile(headIsFollowedRedirect: false))
        XCTAssertFalse(sent().bodyGoesToFile(headIsFollowedRedirect: false), "an in-memory body stays in memory")
        XCTAssertEqual(exchange.completed(reusable: true, redirectIdempotent: nil), [.giveBack(reusable: true), .deliver(decodesBody: false)])
    }

    // MARK: Reuse

    func testConnectionCloseAndOtherReasonsNotToPoolAConnection() {
        let plain = sent()
        XCTAssertTrue(plain.reusable(keepAlive: true, status: 200, leftoverBytes: false))
        XCTAssertFalse(sent(asksToClose: true).reusable(keepAlive: true, status: 200, leftoverBytes: false), "the request said Connection: close")
        XCTAssertFalse(plain.reusable(keepAlive: false, status: 200, leftoverBytes: false), "the response said Connection: close")
        XCTAssertFalse(plain.reusable(keepAlive: true, status: 101, leftoverBytes: false), "switching protocols")
        XCTAssertFalse(plain.reusable(keepAlive: true, status: 200, leftoverBytes: true), "bytes after the response")
        var closed = sent()
        XCTAssertEqual(closed.endOfStream(.success(()), redirectIdempotent: nil), [.giveBack(reusable: false), .deliver(decodesBody: true)],
                       "a body delimited by the close")
    }

    // MARK: A response cut short

    func testAResponseCutInsideItsHeadIsAConnectionLost() {
        var exchange = sent()
        exchange.bytesRead()
        let actions = exchange.endOfStream(.failure(.truncatedHead(received: 12)), redirectIdempotent: nil)
        XCTAssertEqual(actions, [.fail(.response(.truncatedHead(received: 12)))])
        guard case .fail(.response(let wire))? = actions.first, case .connectionLost(nil) = HTTPClientError(wire) else {
            return XCTFail("a head cut short is reported as the connection lost, not \(actions)")
        }
        var malformed = sent()
        XCTAssertEqual(malformed.parseFailed(.malformedStartLine(offset: 0)), .fail(.response(.malformedStartLine(offset: 0))))
    }

    // MARK: Timeouts

    func testEachTimeoutFailsOnlyInItsPhase() {
        var connecting = machine()
        connecting.waiting()
        XCTAssertEqual(connecting.idleTimerFired(idleFor: .seconds(9), idleTimeout: .seconds(1)), nil, "no idle timer while waiting")
        XCTAssertEqual(connecting.overallTimerFired(), .fail(.timedOut(.overall)))
        _ = connecting.leased(.fresh) { false }
        XCTAssertEqual(connecting.overallTimerFired(), .fail(.timedOut(.overall)))

        var opening = machine()
        opening.openingBody()
        XCTAssertEqual(opening.idleTimerFired(idleFor: .seconds(2), idleTimeout: .seconds(1)), .fail(.timedOut(.idle)))

        var sending = machine()
        sending.requestPrepared(asksToClose: false)
        XCTAssertEqual(sending.idleTimerFired(idleFor: .milliseconds(400), idleTimeout: .seconds(1)), .rearmIdleTimer,
                       "bytes moved since the timer was armed")
        XCTAssertEqual(sending.idleTimerFired(idleFor: .seconds(1), idleTimeout: .seconds(1)), .fail(.timedOut(.idle)))

        var receiving = sent()
        XCTAssertEqual(receiving.idleTimerFired(idleFor: .seconds(3), idleTimeout: .seconds(1)), .fail(.timedOut(.idle)))
        XCTAssertEqual(receiving.overallTimerFired(), .fail(.timedOut(.overall)))
        receiving.ended()
        XCTAssertEqual(receiving.overallTimerFired(), nil, "reported already")
    }

    // MARK: Cancel

    func testCancelInEveryPhaseTearsDownOnce() {
        var phases: [Machine.Phase: Machine] = [.idle: machine()]
        var waiting = machine()
        waiting.waiting()
        phases[.waiting] = waiting
        var connecting = waiting
        _ = connecting.leased(.fresh) { false }
        phases[.connecting] = connecting
        var opening = connecting
        opening.openingBody()
        phases[.opening] = opening
        var sending = connecting
        sending.requestPrepared(asksToClose: false)
        phases[.sending] = sending
        phases[.receiving] = sent()
        for (phase, var exchange) in phases {
            XCTAssertEqual(exchange.phase, phase)
            XCTAssertEqual(exchange.cancel(), .tearDown, "cancel while \(phase)")
            XCTAssertEqual(exchange.phase, .done)
            exchange.gaveBack()
            XCTAssertEqual(exchange.phase, .done, "giving the connection back does not revive it")
            XCTAssertEqual(exchange.cancel(), nil, "once")
            XCTAssertEqual(exchange.overallTimerFired(), nil, "nothing is reported after cancel")
        }
        var reported = sent()
        _ = reported.completed(reusable: true, redirectIdempotent: nil)
        reported.gaveBack()
        reported.ended()
        XCTAssertEqual(reported.cancel(), nil, "a reported exchange has nothing to cancel")
    }
}
