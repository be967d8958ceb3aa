import Foundation
@testable import HTTPClient
import HTTPWire
import TestSupport
import XCTest

/// `ExchangeMachine`'s (phase, event) pairs: every pair outside `impossiblePairs` is driven on a
/// machine brought to its phase by real events, and takes it without stopping; every pair in the
/// table stops a child process with a message naming it.
final class ExchangeMachinePairsTests: XCTestCase {
    private typealias Machine = ExchangeMachine

    /// The child process's pair, when this process is one (see `testEveryImpossiblePairStopsNamingIt`).
    private static let childPairVariable = "EXCHANGE_MACHINE_IMPOSSIBLE_PAIR"

    private func machine(_ url: String = "http://a.test/start", method: String = "GET",
                         body: HTTPClientRequest.Body? = nil) throws -> Machine {
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: url)), method: method, body: body)
        return Machine(request: request, maximumRedirects: 5, hasOverallDeadline: false)
    }

    private func begin(_ exchange: inout Machine) {
        _ = exchange.begin(SocketRequestTarget.read(exchange.request.url))
    }

    /// A bodyless request on a new connection, its head made.
    private func sending() throws -> Machine {
        var exchange = try machine()
        begin(&exchange)
        _ = exchange.leased(.connected) { false }
        _ = exchange.headPrepared(hasBody: false, length: nil)
        exchange.headMade(asksToClose: false)
        return exchange
    }

    /// Machines brought to every phase (several ways to some), each by the events the driver feeds.
    private func machinesInEveryPhase() throws -> [(name: String, machine: Machine)] {
        var list: [(String, Machine)] = []
        list.append(("idle, new", try machine()))

        var redirected = try sending()
        _ = redirected.outputWritten()
        redirected.bytesRead()
        redirected.headReceived(status: 302, location: "/next")
        _ = redirected.responseComplete(keepAlive: true, status: 302, leftoverBytes: false)
        list.append(("idle, after a redirect", redirected))

        var waiting = try machine()
        begin(&waiting)
        list.append(("waiting", waiting))

        var unmade = try machine()
        begin(&unmade)
        _ = unmade.leased(.connected) { false }
        list.append(("sending, the head not made", unmade))

        list.append(("sending, the head made", try sending()))

        var opening = try machine(method: "PUT", body: .file(URL(fileURLWithPath: "/nonexistent")))
        begin(&opening)
        _ = opening.leased(.reused) { false }
        list.append(("sending, a file being opened", opening))

        var opened = opening
        _ = opened.bodyOpened(generation: opened.generation, failure: nil)
        list.append(("sending, a file opened", opened))

        var reading = try machine(method: "PUT", body: .bytes(Data([1, 2, 3])))
        begin(&reading)
        _ = reading.leased(.connected) { false }
        _ = reading.headPrepared(hasBody: true, length: 3)
        reading.headMade(asksToClose: false)
        _ = reading.outputWritten()
        list.append(("sending, a piece asked for", reading))

        var receiving = try sending()
        _ = receiving.outputWritten()
        list.append(("receiving", receiving))

        var refused = try sending()
        _ = refused.writeFailed(errno: EPIPE)
        list.append(("receiving, after a failed write", refused))

        var cancelled = waiting
        _ = cancelled.cancel()
        list.append(("done, cancelled", cancelled))

        var reported = receiving
        _ = reported.responseComplete(keepAlive: true, status: 200, leftoverBytes: false)
        list.append(("done, reported", reported))
        return list
    }

    /// Feeds `event` with arguments such as the driver passes; nil for an event that returns no action.
    @discardableResult
    private func apply(_ event: Machine.Event, to exchange: inout Machine) -> Machine.Action? {
        switch event {
        case .begin: return exchange.begin(SocketRequestTarget.read(exchange.request.url))
        case .leased: return exchange.leased(.connected) { false }
        case .connectTimerFired: return exchange.connectTimerFired()
        case .tlsFailed: return exchange.tlsFailed(.connectionLost(errno: ECONNRESET))
        case .bodyOpened: return exchange.bodyOpened(generation: exchange.generation, failure: nil)
        case .headPrepared:
            _ = exchange.headPrepared(hasBody: false, length: nil)
            return nil
        case .headMade:
            exchange.headMade(asksToClose: false)
            return nil
        case .outputWritten: return exchange.outputWritten()
        case .pieceRead: return exchange.pieceRead(.success([1]), generation: exchange.generation)
        case .writeFailed: return exchange.writeFailed(errno: EPIPE)
        case .bytesRead:
            exchange.bytesRead()
            return nil
        case .readFoundNothing: return exchange.readFoundNothing()
        case .readFailed: return exchange.readFailed(errno: ECONNRESET)
        case .parseFailed: return exchange.parseFailed(.malformedStartLine(offset: 0))
        case .headReceived:
            exchange.headReceived(status: 200, location: nil)
            return nil
        case .bodyArrived: return exchange.bodyArrived(fileFailed: false)
        case .responseComplete: return exchange.responseComplete(keepAlive: true, status: 200, leftoverBytes: false)
        case .endOfStream: return exchange.endOfStream(.success(()))
        case .followingRedirect:
            exchange.followingRedirect(answeredBy: HTTPResponseHead(status: 302))
            return nil
        case .idleTimerFired: return exchange.idleTimerFired(idleFor: .seconds(2), idleTimeout: .seconds(1))
        case .downloadClosed:
            _ = exchange.downloadClosed(succeeded: true, fileFailed: false)
            return nil
        case .sinkBacklogged: return exchange.sinkBacklogged()
        case .sinkDrained: return exchange.sinkDrained()
        case .overallTimerFired: return exchange.overallTimerFired()
        case .cancel: return exchange.cancel()
        }
    }

    /// Events of a connection, which arrive late (after a redirect, a reconnect or the end let
    /// the connection go, in the same round) and are then dropped.
    private static let connectionEvents: Set<Machine.Event> = [
        .tlsFailed, .writeFailed, .bytesRead, .readFoundNothing, .readFailed, .parseFailed,
        .headReceived, .bodyArrived, .responseComplete, .endOfStream,
    ]

    /// The upload's pair that `event` becomes in the sending phase (`RequestBodyUploadPairsTests`
    /// checks those), nil when the event does not reach the upload.
    private static func uploadPair(_ event: Machine.Event, in exchange: Machine) -> RequestBodyUpload.Pair? {
        guard case .sending(let upload) = exchange.phase else { return nil }
        let forwarded: RequestBodyUpload.Event? = switch event {
        case .bodyOpened: .opened
        case .headPrepared: .headPrepared
        case .outputWritten: .outputWritten
        case .pieceRead: .pieceRead
        default: nil
        }
        return forwarded.map { RequestBodyUpload.Pair(event: $0, state: upload.state) }
    }

    /// Every pair outside the table is taken in every way the test reaches its phase (but for an
    /// event the sending phase hands to an upload in a state that cannot take it); a
    /// connection's late event leaves a machine without a connection as it was; the table names
    /// only pairs of the machine's phases and events.
    func testEveryPairOutsideTheImpossibleTableIsHandled() throws {
        let machines = try machinesInEveryPhase()
        XCTAssertEqual(Set(machines.map(\.machine.phase.name)), Set(Machine.Phase.Name.allCases), "every phase is reached")
        var driven: Set<Machine.Pair> = []
        for (name, start) in machines {
            for event in Machine.Event.allCases {
                let pair = Machine.Pair(event: event, phase: start.phase.name)
                guard !Machine.impossiblePairs.contains(pair) else { continue }
                if let upload = Self.uploadPair(event, in: start), RequestBodyUpload.impossiblePairs.contains(upload) { continue }
                var exchange = start
                let action = apply(event, to: &exchange)
                driven.insert(pair)
                let hasConnection = [.sending, .receiving].contains(start.phase.name)
                if Self.connectionEvents.contains(event), !hasConnection {
                    XCTAssertEqual(action ?? .none, .none, "\(pair) (\(name)) is dropped")
                    XCTAssertEqual(exchange.phase, start.phase, "\(pair) (\(name)) changes nothing")
                }
                if start.phase == .done {
                    XCTAssertEqual(exchange.phase, .done, "nothing revives a done exchange: \(pair) (\(name))")
                    XCTAssertFalse(exchange.holdsSlot, "\(pair) (\(name))")
                }
            }
        }
        let all = Set(Machine.Phase.Name.allCases.flatMap { phase in Machine.Event.allCases.map { Machine.Pair(event: $0, phase: phase) } })
        XCTAssertEqual(driven, all.subtracting(Machine.impossiblePairs), "every pair outside the table was driven")
        XCTAssertTrue(Machine.impossiblePairs.isSubset(of: all))
        XCTAssertEqual(Machine.impossiblePairs.count, 36, "the table changed: check each pair against SocketExchange")
    }

    /// Each pair of the table stops the process with a message naming it: run in a child process
    /// (this test again, told the pair in its environment), one per pair.
    func testEveryImpossiblePairStopsNamingIt() throws {
        if let named = ProcessInfo.processInfo.environment[Self.childPairVariable] {
            // The child: brings a machine to the pair's phase and feeds the event (it stops there).
            let parts = named.split(separator: " ").map(String.init)
            let event = try XCTUnwrap(Machine.Event(rawValue: parts[0]))
            let phase = try XCTUnwrap(Machine.Phase.Name(rawValue: parts[1]))
            var exchange = try XCTUnwrap(machinesInEveryPhase().first { $0.machine.phase.name == phase }).machine
            apply(event, to: &exchange)
            return XCTFail("\(named) did not stop")
        }
        let pairs = Machine.impossiblePairs.sorted { $0.description < $1.description }
        try ChildTestRun.assertEachStops(test: "HTTPClientTests.ExchangeMachinePairsTests/testEveryImpossiblePairStopsNamingIt",
                                         variable: Self.childPairVariable,
                                         children: pairs.map { ("\($0.event.rawValue) \($0.phase.rawValue)", "ExchangeMachine: \($0) cannot happen") })
    }
}
