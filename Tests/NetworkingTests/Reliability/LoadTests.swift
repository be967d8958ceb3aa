import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import Reactive
import Synchronization
import TestSupport
import XCTest

/// Many requests at once through the provider against the loopback server, bounded in count
/// and time: every one succeeds.
final class LoadTests: FeedServerTestCase {
    func testTwoThousandRequestsWithSixtyFourInFlightCompleteWithoutErrors() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        let transport = URLSessionTransport(configuration: configuration, maximumConnectionsPerHost: 64)
        let provider = NetworkProvider<ServerRoute>(transport: transport)
        let target = route("echo")
        let total = 2_000
        let inFlight = 64

        let outcomes = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable.range(start: 0, count: total)
            .merging(maxConcurrentRequests: inFlight) { _ in provider.rx.request(target).filterSuccessfulStatusCodes() }
            .subscribe(
                onNext: { _ in outcomes.append("ok") },
                onError: { outcomes.append("error \($0)"); done.signal() },
                onCompleted: { done.signal() }
            )
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success, "2,000 requests finished in bounded time")
        subscription.dispose()
        let errors = outcomes.values.filter { $0 != "ok" }
        XCTAssertEqual(errors, [])
        XCTAssertEqual(outcomes.count, total)
        XCTAssertEqual(server.requestCount(path: "/echo"), total)
    }
}

extension LoadTests {
    /// Over the event loop: 256 requests in flight, more than the pool's 128 connections, so
    /// half of them wait for a connection at any time (without a thread).
    func testTwoThousandRequestsWithTwoHundredFiftySixInFlightOverSocketTransport() throws {
        let transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: 128, idleTimeout: .seconds(30)))
        defer { transport.close() }
        let provider = NetworkProvider<ServerRoute>(transport: transport)
        let target = route("echo")
        let total = 2_000

        let outcomes = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable.range(start: 0, count: total)
            .merging(maxConcurrentRequests: 256) { _ in provider.rx.request(target).filterSuccessfulStatusCodes() }
            .subscribe(
                onNext: { _ in outcomes.append("ok") },
                onError: { outcomes.append("error \($0)"); done.signal() },
                onCompleted: { done.signal() }
            )
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success, "2,000 requests finished in bounded time")
        subscription.dispose()
        XCTAssertEqual(outcomes.values.filter { $0 != "ok" }, [])
        XCTAssertEqual(outcomes.count, total)
        XCTAssertEqual(server.requestCount(path: "/echo"), total)
        XCTAssertLessThanOrEqual(server.connectionCount, 128 * 2, "connections are pooled, not opened per request")
    }
}

extension ObservableType where Element: Sendable {
    /// Runs at most `limit` of the requests that `request` makes at once.
    func merging(
        maxConcurrentRequests limit: Int, _ request: @escaping @Sendable (Element) -> Single<Response>
    ) -> Observable<Response> {
        let gate = ConcurrencyGate(limit: limit)
        return flatMap { element in gate.run(request(element).asObservable()) }
    }
}

/// Holds requests back until fewer than `limit` are running.
final class ConcurrencyGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
    }

    private let limit: Int
    private let state = Lock(State())

    init(limit: Int) { self.limit = limit }

    func run(_ work: Observable<Response>) -> Observable<Response> {
        Observable.create { observer in
            let subscription = SingleAssignmentDisposable()
            let start: @Sendable () -> Void = {
                subscription.setDisposable(work.do(onDispose: { self.finished() }).subscribe(observer))
            }
            let startNow = self.state.withLock { state -> Bool in
                if state.running < self.limit {
                    state.running += 1
                    return true
                }
                state.waiting.append(start)
                return false
            }
            if startNow { start() }
            return subscription
        }
    }

    private func finished() {
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?()
    }
}
