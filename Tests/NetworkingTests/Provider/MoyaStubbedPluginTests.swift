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

/// Moya's `MoyaProviderSpec` cases for plugins around stubs, their expected values as Moya
/// writes them: "logs the request with stubbing", and the "a provider with delayed stubs" group
/// (run in virtual time, where Moya waits half a second).
final class MoyaStubbedPluginTests: LeakCheckingTestCase {
    enum GitHub: TargetType {
        case zen
        case userProfile(String)

        var baseURL: URL { URL(string: "https://api.github.com")! }
        var path: String {
            switch self {
            case .zen: return "/zen"
            case .userProfile(let name): return "/users/\(name)"
            }
        }
        var method: HTTPMethod { .get }
        var task: RequestTask { .requestPlain }
        var headers: [String: String]? { nil }
        var sampleData: Data {
            switch self {
            case .zen: return Data("Half measures are as bad as nothing at all.".utf8)
            case .userProfile(let name): return Data(#"{"login": "\#(name)", "id": 100}"#.utf8)
            }
        }
    }

    /// Moya's `TestingPlugin`: marks the request in `prepare`, checks the mark in `willSend`,
    /// records the result, and `process` rewrites a success's status to -1.
    final class TestingPlugin: PluginType, @unchecked Sendable {
        // @unchecked: written on the scheduler's thread only (the test's), read after it ran.
        var didPrepare = false
        var result: Result<Response, ProviderError>?

        func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
            var request = request
            request.addValue("yes", forHTTPHeaderField: "prepared")
            return request
        }

        func willSend(_ request: any RequestType, target: any TargetType) {
            // Moya reads `allHTTPHeaderFields?["prepared"]`; FoundationNetworking keeps header
            // names capitalized ("Prepared"), so the name is looked up without case here.
            didPrepare = request.request?.value(forHTTPHeaderField: "prepared") == "yes"
        }

        func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) {
            self.result = result
        }

        func process(_ result: Result<Response, ProviderError>, target: any TargetType) -> Result<Response, ProviderError> {
            guard case .success(let response) = result else { return result }
            return .success(Response(statusCode: -1, data: response.data, request: response.request, response: response.response))
        }
    }

    func testLogsTheRequestWithStubbing() {
        let collector = LineCollector()
        let plugin = NetworkLoggerPlugin(configuration: .init(output: collector.output, logOptions: .verbose))
        let provider = NetworkProvider<GitHub>(stubClosure: NetworkProvider.immediatelyStub, plugins: [plugin])
        let done = Recorder<Bool>()
        provider.request(.zen) { _ in done.append(true) }
        XCTAssertEqual(done.count, 1)
        let log = collector.text
        XCTAssertTrue(log.contains("Request: https://api.github.com/zen"), log)
        XCTAssertTrue(log.contains("Request Headers: "), log)
        XCTAssertTrue(log.contains("HTTP Request Method: GET"), log)
        XCTAssertTrue(log.contains("Response: Received empty network response for zen."), log)
        XCTAssertTrue(log.contains("Response Body: Half measures are as bad as nothing at all."), log)
    }

    /// A stub's `.networkResponse` carries no `HTTPURLResponse`, as Moya's; a `.response` stub
    /// carries the one it names ("returns identical sample response").
    func testAStubsNetworkResponseHasNoHTTPURLResponseAndACustomOneIsKept() throws {
        let provider = NetworkProvider<GitHub>(stubClosure: NetworkProvider.immediatelyStub)
        let plain = Recorder<Result<Response, ProviderError>>()
        provider.request(.zen) { plain.append($0) }
        let response = try XCTUnwrap(plain.values.first).get()
        XCTAssertNil(response.response)
        XCTAssertEqual(response.request?.url?.absoluteString, "https://api.github.com/zen")

        let custom = HTTPURLResponse(url: URL(string: "http://example.com")!, statusCode: 200, httpVersion: nil, headerFields: nil)!
        let identical = NetworkProvider<GitHub>(
            endpointClosure: { target in
                Endpoint(url: URL(target: target).absoluteString, sampleResponseClosure: { .response(custom, target.sampleData) },
                         method: target.method, task: target.task, httpHeaderFields: target.headers)
            },
            stubClosure: NetworkProvider.immediatelyStub)
        let received = Recorder<Result<Response, ProviderError>>()
        identical.request(.zen) { received.append($0) }
        XCTAssertTrue(try XCTUnwrap(received.values.first).get().response === custom)
    }

    // MARK: a provider with delayed stubs

    private func delayedProvider(_ plugin: TestingPlugin, _ scheduler: TestScheduler) -> NetworkProvider<GitHub> {
        NetworkProvider<GitHub>(stubClosure: NetworkProvider.delayedStub(0.5), plugins: [plugin], scheduler: scheduler)
    }

    func testDelaysExecution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: .milliseconds(100))
        let provider = delayedProvider(TestingPlugin(), scheduler)
        let ended = Recorder<Int>()
        scheduler.scheduleAt(10) { provider.request(.zen) { _ in ended.append(scheduler.clock) } }
        scheduler.start()
        XCTAssertEqual(ended.values, [15], "half a second later, in 100 ms ticks")
    }

    func testReturnsAnErrorWhenRequestIsCanceledAndNotifiesPlugins() {
        let scheduler = TestScheduler(initialClock: 0)
        let plugin = TestingPlugin()
        let provider = delayedProvider(plugin, scheduler)
        let received = Recorder<Result<Response, ProviderError>>()
        let token = provider.request(.userProfile("ashfurrow")) { received.append($0) }
        token.cancel()
        scheduler.start()
        guard case .failure(.underlying(let error, nil))? = received.values.first else { return XCTFail("\(received.values)") }
        XCTAssertEqual((error as? URLError)?.code, .cancelled)
        guard case .failure? = plugin.result else { return XCTFail("the plugin saw \(String(describing: plugin.result))") }
    }

    func testPreparesTheRequestUsingPlugins() {
        let scheduler = TestScheduler(initialClock: 0)
        let plugin = TestingPlugin()
        let provider = delayedProvider(plugin, scheduler)
        provider.request(.userProfile("ashfurrow")) { _ in }
        XCTAssertTrue(plugin.didPrepare, "willSend saw what prepare returned, when the request was sent")
        scheduler.start()
        XCTAssertTrue(plugin.didPrepare)
    }

    func testReturnsSuccessWhenRequestIsNotCanceledAndProcessesTheResponseWithPlugins() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = delayedProvider(TestingPlugin(), scheduler)
        let received = Recorder<Result<Response, ProviderError>>()
        provider.request(.userProfile("ashfurrow")) { received.append($0) }
        scheduler.start()
        let response = try XCTUnwrap(received.values.first).get()
        XCTAssertEqual(response.statusCode, -1)
        XCTAssertEqual(response.request?.value(forHTTPHeaderField: "prepared"), "yes", "the stub answers the prepared request")
    }

    /// The same check for the three ways an answer comes, so that they cannot drift apart: an
    /// immediate stub, a delayed one, and the network (a real server on loopback).
    func testWillSendSeesThePreparedRequestForImmediateAndDelayedStubsAndTheNetwork() throws {
        let scheduler = TestScheduler(initialClock: 0)
        for stub in [NetworkProvider<GitHub>.immediatelyStub, NetworkProvider<GitHub>.delayedStub(.seconds(3))] {
            let plugin = TestingPlugin()
            let provider = NetworkProvider<GitHub>(stubClosure: stub, plugins: [plugin], scheduler: scheduler)
            let received = Recorder<Int>()
            provider.request(.zen) { received.append((try? $0.get().statusCode) ?? 0) }
            scheduler.start()
            XCTAssertTrue(plugin.didPrepare)
            XCTAssertEqual(received.values, [-1])
        }
        let server = try FeedServer()
        defer { server.stop() }
        let plugin = TestingPlugin()
        let provider = NetworkProvider<ServerRoute>(plugins: [plugin])
        let received = Recorder<Int>()
        provider.request(ServerRoute(baseURL: server.baseURL, path: "echo")) { received.append((try? $0.get().statusCode) ?? 0) }
        XCTAssertTrue(waitUntil { received.count == 1 })
        XCTAssertTrue(plugin.didPrepare)
        XCTAssertEqual(received.values, [-1])
    }
}
