import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// Stubs answer on the provider's scheduler, so a `TestScheduler` decides every tick.
final class StubbedProviderTests: LeakCheckingTestCase {
    private func provider(
        _ scheduler: TestScheduler, stub: @escaping NetworkProvider<StubbedAPI>.StubClosure,
        timeout: Duration? = nil, plugins: [any PluginType] = []
    ) -> NetworkProvider<StubbedAPI> {
        NetworkProvider(endpointClosure: stubbedEndpoint, stubClosure: stub, plugins: plugins,
                        scheduler: scheduler, requestTimeout: timeout)
    }

    func testImmediateStubAnswersAtTheTickOfSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = provider(scheduler, stub: NetworkProvider.immediatelyStub)
        let res = scheduler.start { provider.rx.request(.ok).map { $0.statusCode } }
        XCTAssertEqual(res.events, [.next(200, 200), .completed(200)])
    }

    func testImmediateStubOnTheImmediateSchedulerAnswersBeforeSubscribeReturnsWithPluginsInOrder() {
        let events = Recorder<String>()
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.immediatelyStub,
                                                   plugins: [OrderSpy(events)])
        let subscription = provider.rx.request(.ok).subscribe(onSuccess: { events.append("success \($0.statusCode)") })
        events.append("subscribed")
        subscription.dispose()
        XCTAssertEqual(events.values, ["prepare", "willSend", "didReceive", "process", "success 200", "subscribed"])
    }

    /// Disposing `rx.request`'s own subscription before the answer cancels the request: plugins
    /// see it end, in Moya's order, and the observer (no operator between to drop events for it)
    /// hears nothing, neither the cancellation nor the stub's answer.
    func testDisposingTheRequestsOwnSubscriptionCancelsAndItsObserverHearsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let events = Recorder<String>()
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint,
                                                   stubClosure: NetworkProvider.delayedStub(.seconds(10)),
                                                   plugins: [OrderSpy(events)], scheduler: scheduler)
        let observer = scheduler.createObserver(Int.self)
        let direct = scheduler.createObserver(Response.self)
        let subscription = SerialDisposable()
        scheduler.scheduleAt(100) { subscription.disposable = provider.rx.request(.ok).asObservable().subscribe(direct) }
        scheduler.scheduleAt(100) { _ = provider.rx.request(.ok).map { $0.statusCode }.asObservable().subscribe(observer) }
        scheduler.scheduleAt(105) { subscription.dispose() }
        scheduler.start()
        XCTAssertEqual(events.values, ["prepare", "willSend", "prepare", "willSend", "didReceive", "process", "didReceive", "process"])
        XCTAssertTrue(direct.events.isEmpty, "\(direct.events)")
        XCTAssertEqual(observer.events, [.next(110, 200), .completed(110)], "the other request answers")
    }

    /// `rx.request` of a provider type of the caller's own goes through its `request` requirement.
    func testRxRequestOfAnotherProviderTypeAnswersAndDisposingCancels() {
        let scheduler = TestScheduler(initialClock: 0)
        let wrapped = WrappingProvider(provider(scheduler, stub: NetworkProvider.delayedStub(.seconds(30))))
        let answered = scheduler.start { wrapped.rx.request(.ok).map { $0.statusCode } }
        XCTAssertEqual(answered.events, [.next(230, 200), .completed(230)])
        XCTAssertEqual(wrapped.results.values, ["success"])

        let later = TestScheduler(initialClock: 0)
        let cancelling = WrappingProvider(provider(later, stub: NetworkProvider.delayedStub(.seconds(900))))
        let cancelled = later.start(disposed: 500) { cancelling.rx.request(.ok).map { $0.statusCode } }
        XCTAssertEqual(cancelled.events, [])
        XCTAssertEqual(cancelling.results.values, ["cancelled"])
    }

    func testDelayedStubAnswersAfterItsDelayInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = provider(scheduler, stub: NetworkProvider.delayedStub(.seconds(30)))
        let res = scheduler.start { provider.rx.request(.ok).map(Named.self) }
        XCTAssertEqual(res.events, [.next(230, Named(name: "stub")), .completed(230)])
    }

    func testRequestTimeoutOnTheSameSchedulerClassifiesAsRequestTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = provider(scheduler, stub: NetworkProvider.delayedStub(.seconds(30)), timeout: .seconds(10))
        let res = scheduler.start { provider.rx.request(.ok).filterSuccessfulStatusCodes().classifyErrors() }
        XCTAssertEqual(res.events.count, 1)
        XCTAssertEqual(res.events.first?.time, 210)
        guard case .error(let error)? = res.events.first?.value, case .requestTimeout(let root)? = error as? APIError else {
            return XCTFail("expected a classified timeout, got \(res.events)")
        }
        XCTAssertEqual(root as? ReactiveError, .timeout)
    }

    func testDisposingAStubbedRequestBeforeItsTickCancelsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = provider(scheduler, stub: NetworkProvider.delayedStub(.seconds(900)))
        let res = scheduler.start(disposed: 500) { provider.rx.request(.ok).map { $0.statusCode } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(scheduler.clock, 500, "the cancelled stub is dropped without moving the clock past the disposal")
    }

    func testNetworkErrorStubsClassifyEachConnectionCode() {
        let cases: [(URLError.Code, String)] = [
            (.notConnectedToInternet, "connection"), (.cannotConnectToHost, "connection"),
            (.cannotFindHost, "connection"), (.dnsLookupFailed, "connection"),
            (.networkConnectionLost, "connection"), (.timedOut, "timeout"),
        ]
        for (code, expected) in cases {
            let scheduler = TestScheduler(initialClock: 0)
            let provider = provider(scheduler, stub: NetworkProvider.immediatelyStub)
            let res = scheduler.start { provider.rx.request(.failing(code)).classifyErrors() }
            guard case .error(let error)? = res.events.first?.value, let api = error as? APIError else {
                XCTFail("\(code): expected an APIError, got \(res.events)")
                continue
            }
            XCTAssertEqual(res.events.first?.time, 200)
            switch (api, expected) {
            case (.internetConnection(let root), "connection"):
                XCTAssertEqual(root.urlError?.code, code)
                XCTAssertTrue(api.isNoNetwork)
            case (.requestTimeout(let root), "timeout"):
                XCTAssertEqual(root.urlError?.code, code)
            default:
                XCTFail("\(code) classified as \(api)")
            }
        }
    }

    func testServerErrorWithJSONCodeBecomesRestError() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = provider(scheduler, stub: NetworkProvider.immediatelyStub)
        let body = #"{"code":"E_DB","message":"database down"}"#
        let res = scheduler.start {
            provider.rx.request(.status(500, body: body)).filterSuccessfulStatusCodes().classifyErrors()
        }
        guard case .error(let error)? = res.events.first?.value,
              case .restError(_, let statusCode, let errorCode)? = error as? APIError else {
            return XCTFail("expected a REST error, got \(res.events)")
        }
        XCTAssertEqual(statusCode, 500)
        XCTAssertEqual(errorCode, "E_DB")
        XCTAssertEqual((error as? APIError)?.serverMessage, "database down")
        XCTAssertEqual(res.events.first?.time, 200)
    }

    func testNonJSONErrorBodyStillClassifiesByStatus() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = provider(scheduler, stub: NetworkProvider.immediatelyStub)
        let res = scheduler.start {
            provider.rx.request(.status(502, body: "<html>bad gateway</html>")).filterSuccessfulStatusCodes().classifyErrors()
        }
        guard case .error(let error)? = res.events.first?.value,
              case .restError(_, let statusCode, let errorCode)? = error as? APIError else {
            return XCTFail("expected a REST error, got \(res.events)")
        }
        XCTAssertEqual(statusCode, 502)
        XCTAssertNil(errorCode)
    }

    func testValidationTypeFailsWithTheWholeResponseForStubs() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = provider(scheduler, stub: NetworkProvider.immediatelyStub)
        let res = scheduler.start { provider.rx.request(.validated(404)) }
        guard case .error(let error)? = res.events.first?.value, case .statusCode(let response)? = error as? ProviderError else {
            return XCTFail("expected ProviderError.statusCode, got \(res.events)")
        }
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(String(decoding: response.data, as: UTF8.self), #"{"code":"NF","message":"missing"}"#)
    }

    func testTheSingleKeepsItsProviderAliveUntilItAnswers() {
        let scheduler = TestScheduler(initialClock: 0)
        weak var released: NetworkProvider<StubbedAPI>?
        var request: Single<Int>?
        do {
            let provider = provider(scheduler, stub: NetworkProvider.delayedStub(.seconds(5)))
            released = provider
            request = provider.rx.request(.ok).map { $0.statusCode }
        }
        XCTAssertNotNil(released, "the single holds the provider")
        do {
            guard let single = request else { return XCTFail("no request") }
            let res = scheduler.start { single }
            XCTAssertEqual(res.events, [.next(205, 200), .completed(205)])
        }
        request = nil
        XCTAssertNil(released, "and lets it go once nothing holds the single")
    }

    func testAsyncRequestReturnsTheStubbedResponse() async throws {
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.immediatelyStub)
        let response = try await provider.request(.ok)
        XCTAssertEqual(try response.map(Named.self), Named(name: "stub"))
    }

    func testCompletionFormReportsOnTheCallbackQueue() {
        let queue = DispatchQueue(label: "callback")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.immediatelyStub,
                                                    callbackQueue: queue)
        let seen = Recorder<Int?>()
        provider.request(.ok) { _ in seen.append(DispatchQueue.getSpecific(key: key)) }
        XCTAssertTrue(waitUntil { seen.count == 1 })
        XCTAssertEqual(seen.values, [7])
    }
}

/// Records the plugin calls of a request, and where the subscriber's answer falls among them.
private struct OrderSpy: PluginType {
    let events: Recorder<String>
    init(_ events: Recorder<String>) { self.events = events }

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        events.append("prepare")
        return request
    }

    func willSend(_ request: any RequestType, target: any TargetType) { events.append("willSend") }

    func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) { events.append("didReceive") }

    func process(_ result: Result<Response, ProviderError>, target: any TargetType) -> Result<Response, ProviderError> {
        events.append("process")
        return result
    }
}

/// A provider type that is not a `NetworkProvider`: it hands requests to one and records how
/// each ended.
private final class WrappingProvider: NetworkProviderType {
    let provider: NetworkProvider<StubbedAPI>
    let results = Recorder<String>()

    init(_ provider: NetworkProvider<StubbedAPI>) { self.provider = provider }

    var requestTimeout: Duration? { provider.requestTimeout }
    var scheduler: any SchedulerType { provider.scheduler }

    func request(
        _ target: StubbedAPI, callbackQueue: DispatchQueue?, progress: ProgressBlock?,
        completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void
    ) -> any Cancellable {
        let results = self.results
        return provider.request(target, callbackQueue: callbackQueue, progress: progress) { result in
            results.append(CancellationTests.describe(result).hasPrefix("success") ? "success" : CancellationTests.describe(result))
            completion(result)
        }
    }
}
