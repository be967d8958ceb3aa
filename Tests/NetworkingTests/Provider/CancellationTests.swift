import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// Moya's cancellation: the completion runs once with `URLError(.cancelled)`, plugins see it too.
final class CancellationTests: LeakCheckingTestCase {
    /// Records what plugins are told (`willSend`, and each result as `describe(_:)` puts it).
    final class Spy: PluginType {
        let events = Recorder<String>()
        func willSend(_ request: any RequestType, target: any TargetType) { events.append("willSend") }
        func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) {
            events.append(CancellationTests.describe(result))
        }
    }

    static func describe(_ result: Result<Response, ProviderError>) -> String {
        switch result {
        case .success(let response): return "success \(response.statusCode)"
        case .failure(.underlying(let error as URLError, nil))
            where error.code == .cancelled && error.errorUserInfo[NSUnderlyingErrorKey] as? TransportError == .cancelled:
            return "cancelled"
        case .failure(let error): return "failure \(error)"
        }
    }

    func testCancellingADelayedStubCompletesOnceWithCancelled() {
        let scheduler = TestScheduler(initialClock: 0)
        let spy = Spy()
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.delayedStub(.seconds(10)),
                                                   plugins: [spy], scheduler: scheduler)
        let results = Recorder<String>()
        let call = provider.request(.ok) { results.append(Self.describe($0)) }
        scheduler.advanceTo(5)
        XCTAssertFalse(call.isCancelled)
        call.cancel()
        call.cancel()
        XCTAssertTrue(call.isCancelled)
        scheduler.advanceTo(100)
        XCTAssertEqual(results.values, ["cancelled"])
        XCTAssertEqual(spy.events.values, ["willSend", "cancelled"])
    }

    func testCancellingBeforeTheRequestIsBuiltCompletesOnceAndSendsNothing() {
        let pending = Recorder<NetworkProvider<StubbedAPI>.RequestResultClosure>()
        let spy = Spy()
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint,
                                                   requestClosure: { _, done in pending.append(done) },
                                                   stubClosure: NetworkProvider.immediatelyStub, plugins: [spy])
        let results = Recorder<String>()
        let call = provider.request(.ok) { results.append(Self.describe($0)) }
        XCTAssertEqual(pending.count, 1, "the request closure has not answered yet")
        call.cancel()
        XCTAssertEqual(results.values, ["cancelled"])
        pending.values.first?(.success(URLRequest(url: URL(string: "https://api.example.test/ok")!)))
        XCTAssertEqual(results.values, ["cancelled"], "the late request is never sent")
        XCTAssertEqual(spy.events.values, ["cancelled"], "plugins see the cancellation, and no willSend")
    }

    func testCancellingAfterTheAnswerChangesNothing() {
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.immediatelyStub)
        let results = Recorder<String>()
        let call = provider.request(.ok) { results.append(Self.describe($0)) }
        call.cancel()
        XCTAssertEqual(results.values, ["success 200"])
    }

    func testCancelledResultGoesToTheCallbackQueue() {
        let queue = DispatchQueue(label: "cancellation.callbacks")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let scheduler = TestScheduler(initialClock: 0)
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.delayedStub(.seconds(1)),
                                                   callbackQueue: queue, scheduler: scheduler)
        let results = Recorder<String>()
        let call = provider.request(.ok) { results.append("\(Self.describe($0)) on \(DispatchQueue.getSpecific(key: key) ?? 0)") }
        call.cancel()
        XCTAssertTrue(waitUntil { results.count == 1 })
        XCTAssertEqual(results.values, ["cancelled on 7"])
    }

    func testRxDisposalStillDeliversNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let spy = Spy()
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.delayedStub(.seconds(900)),
                                                   plugins: [spy], scheduler: scheduler)
        let res = scheduler.start(disposed: 500) { provider.rx.request(.ok).map { $0.statusCode } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(spy.events.values, ["willSend", "cancelled"])
    }

    func testCancellingARealRequestOverLoopback() throws {
        let server = try FeedServer()
        defer { server.stop() }
        for transport in [DefaultTransport(), URLSessionTransport(configuration: .ephemeral)] as [any HTTPTransport] {
            let spy = Spy()
            let provider = NetworkProvider<ServerRoute>(transport: transport, plugins: [spy])
            let results = Recorder<String>()
            let before = server.requestCount(path: "/hang")
            let openBefore = server.openConnectionCount
            let call = provider.request(ServerRoute(baseURL: server.baseURL, path: "hang")) { results.append(Self.describe($0)) }
            XCTAssertTrue(waitUntil { server.requestCount(path: "/hang") == before + 1 }, "the request reached the server")
            call.cancel()
            XCTAssertTrue(waitUntil { results.count == 1 })
            // Once the connection is closed, the transport would have reported the cancelled
            // exchange on its loop (drained here) or on the session's serial delegate queue
            // before it starts the later request: to this provider before the later answer.
            XCTAssertTrue(waitUntil(timeout: 20) { server.openConnectionCount <= openBefore }, "the server sees the connection closed")
            drainSharedLoops()
            let later = Recorder<String>()
            provider.request(ServerRoute(baseURL: server.baseURL, path: "echo")) { later.append(Self.describe($0)) }
            XCTAssertTrue(waitUntil(timeout: 20) { later.count == 1 })
            XCTAssertEqual(later.values, ["success 200"], "\(type(of: transport))")
            XCTAssertEqual(results.values, ["cancelled"], "\(type(of: transport))")
            XCTAssertEqual(spy.events.values, ["willSend", "cancelled", "willSend", "success 200"], "\(type(of: transport))")
        }
    }
}
