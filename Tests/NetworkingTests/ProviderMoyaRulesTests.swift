import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// The provider layer held to Moya 15's documented behaviour: its plugins (`AccessTokenPlugin`
/// with a `MultiTarget`), where a stub's plugin calls run when there is a `callbackQueue`,
/// validation of stubs, and `Response`'s key-path mappings.
final class ProviderMoyaRulesTests: LeakCheckingTestCase {
    /// Records which queue each plugin call and the completion ran on (0: not the callback queue).
    private struct QueueSpy: PluginType {
        let key: DispatchSpecificKey<Int>
        let log: Recorder<String>

        func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) {
            log.append("didReceive on \(DispatchQueue.getSpecific(key: key) ?? 0)")
        }

        func process(_ result: Result<Response, ProviderError>, target: any TargetType) -> Result<Response, ProviderError> {
            log.append("process on \(DispatchQueue.getSpecific(key: key) ?? 0)")
            return result
        }
    }

    // MARK: - AccessTokenPlugin

    /// Moya 15's `AccessTokenPlugin` asks `tokenClosure` for the token of the target a
    /// `MultiTarget` wraps (`(target as? MultiTarget)?.target ?? target`), so a closure that picks
    /// the token by target type works for a provider of `MultiTarget` too.
    func testTheTokenClosureGetsTheTargetAMultiTargetWraps() throws {
        let plugin = AccessTokenPlugin { target in
            (target as? TestTarget).map { "token-for\($0.path)" } ?? "token-for-\(type(of: target))"
        }
        let provider = NetworkProvider<MultiTarget>(stubClosure: NetworkProvider.immediatelyStub, plugins: [plugin])
        var target = TestTarget(path: "/me")
        target.authorizationType = .bearer
        let sent = Recorder<String>()
        provider.request(MultiTarget(target)) { result in
            sent.append((try? result.get().request?.value(forHTTPHeaderField: "Authorization")) ?? "none")
        }
        XCTAssertEqual(sent.values, ["Bearer token-for/me"])
    }

    /// `.bearer`, `.basic` and `.custom` put their scheme before the token; a target whose
    /// `authorizationType` is nil gets no header (Moya's `AccessTokenPlugin`).
    func testEachAuthorizationTypeWritesItsSchemeAndNilWritesNothing() {
        let plugin = AccessTokenPlugin { _ in "abc" }
        let request = URLRequest(url: URL(string: "https://api.example.test/items")!)
        let cases: [(AuthorizationType?, String?)] = [(.bearer, "Bearer abc"), (.basic, "Basic abc"), (.custom("Token"), "Token abc"), (nil, nil)]
        for (type, expected) in cases {
            let target = TestTarget(authorizationType: type)
            XCTAssertEqual(plugin.prepare(request, target: target).value(forHTTPHeaderField: "Authorization"), expected, "\(String(describing: type))")
            XCTAssertEqual(plugin.prepare(request, target: MultiTarget(target)).value(forHTTPHeaderField: "Authorization"), expected,
                           "\(String(describing: type)) through a MultiTarget")
        }
    }

    // MARK: - Stubs and the callback queue

    /// Moya's stubs run their whole answer (`didReceive`, `process`, the completion) on the
    /// `callbackQueue`, and THREADS.md puts plugins' `didReceive` and `process` where the
    /// completion runs, just before it: an immediate or delayed stub keeps to that.
    func testAStubsPluginCallsRunOnTheCallbackQueueBeforeTheCompletion() {
        for behavior in [StubBehavior.immediate, .delayed(.milliseconds(20))] {
            let queue = DispatchQueue(label: "ProviderMoyaRulesTests.callbacks")
            let key = DispatchSpecificKey<Int>()
            queue.setSpecific(key: key, value: 7)
            let log = Recorder<String>()
            let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: { _ in behavior },
                                                       callbackQueue: queue, plugins: [QueueSpy(key: key, log: log)])
            provider.request(.ok) { _ in log.append("completion on \(DispatchQueue.getSpecific(key: key) ?? 0)") }
            XCTAssertTrue(waitUntil { log.count == 3 }, "\(behavior)")
            XCTAssertEqual(log.values, ["didReceive on 7", "process on 7", "completion on 7"], "\(behavior)")
        }
    }

    /// The same for a cancelled stub: plugins hear the cancellation where the completion runs.
    func testACancelledStubsPluginCallsRunOnTheCallbackQueue() {
        let queue = DispatchQueue(label: "ProviderMoyaRulesTests.cancellations")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let log = Recorder<String>()
        let provider = NetworkProvider<StubbedAPI>(endpointClosure: stubbedEndpoint, stubClosure: NetworkProvider.delayedStub(.seconds(60)),
                                                   callbackQueue: queue, plugins: [QueueSpy(key: key, log: log)])
        let call = provider.request(.ok) { result in
            let cancelled = (try? result.get()) == nil
            log.append("completion \(cancelled ? "cancelled" : "answered") on \(DispatchQueue.getSpecific(key: key) ?? 0)")
        }
        call.cancel()
        XCTAssertTrue(waitUntil { log.count == 3 })
        XCTAssertEqual(log.values, ["didReceive on 7", "process on 7", "completion cancelled on 7"])
    }

    // MARK: - Validation of stubs

    /// A stub's status is validated as a real response's: `.successAndRedirectCodes` takes
    /// 200...399, `.customCodes` exactly its codes, `.none` everything; a rejected status
    /// fails with `ProviderError.statusCode` carrying the stubbed response.
    func testStubbedStatusesAreValidatedByEachValidationType() {
        let cases: [(ValidationType, Int, Bool)] = [
            (.successAndRedirectCodes, 302, true), (.successAndRedirectCodes, 404, false), (.successCodes, 302, false),
            (.customCodes([201, 418]), 418, true), (.customCodes([201, 418]), 200, false), (.customCodes([]), 500, true),
            (.none, 500, true),
        ]
        for (validation, status, accepted) in cases {
            let target = ValidatedStub(validationType: validation, status: status)
            let sample = EndpointSampleResponse.networkResponse(status, target.sampleData)
            let provider = NetworkProvider<ValidatedStub>(endpointClosure: { Endpoint(target: $0, sampleResponseClosure: { sample }) },
                                                          stubClosure: NetworkProvider.immediatelyStub)
            let results = Recorder<Result<Response, ProviderError>>()
            provider.request(target) { results.append($0) }
            switch results.values.first {
            case .success(let response)?:
                XCTAssertTrue(accepted, "\(validation) accepted \(status)")
                XCTAssertEqual(response.statusCode, status)
            case .failure(.statusCode(let response))?:
                XCTAssertFalse(accepted, "\(validation) rejected \(status)")
                XCTAssertEqual(response.statusCode, status)
                XCTAssertEqual(response.data, target.sampleData)
            default:
                XCTFail("\(validation) \(status): \(String(describing: results.values.first))")
            }
        }
    }

    // MARK: - Key-path mappings

    /// `map(_:atKeyPath:)` decodes a scalar (`Bool`, `Int`, `String`), a JSON `null` into an
    /// `Optional` as nil, a nested object and an array at a key path, as Moya's wrapper does;
    /// `mapString(atKeyPath:)` of a number is a `stringMapping` failure.
    func testKeyPathMappingsOfScalarsNullsObjectsAndArrays() throws {
        let response = Response(statusCode: 200, data: Data(#"{"a":{"ok":true,"n":null,"i":7,"s":"x","list":[1,2],"named":{"name":"y"}}}"#.utf8))
        XCTAssertEqual(try response.map(Bool.self, atKeyPath: "a.ok"), true)
        let null: Int? = try response.map(Int?.self, atKeyPath: "a.n")
        XCTAssertNil(null)
        XCTAssertEqual(try response.map(Int.self, atKeyPath: "a.i"), 7)
        XCTAssertEqual(try response.map(String.self, atKeyPath: "a.s"), "x")
        XCTAssertEqual(try response.map([Int].self, atKeyPath: "a.list"), [1, 2])
        XCTAssertEqual(try response.map(Named.self, atKeyPath: "a.named"), Named(name: "y"))
        XCTAssertEqual(try response.mapString(atKeyPath: "a.s"), "x")
        XCTAssertThrowsError(try response.mapString(atKeyPath: "a.i")) { error in
            guard case .stringMapping? = error as? ProviderError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try response.map(Int.self, atKeyPath: "a.missing")) { error in
            guard case .jsonMapping? = error as? ProviderError else { return XCTFail("\(error)") }
        }
    }
}

/// A stubbed target with the validation and status a test gives.
private struct ValidatedStub: TargetType {
    let validationType: ValidationType
    let status: Int

    var baseURL: URL { URL(string: "https://api.example.test")! }
    var path: String { "validated" }
    var method: HTTPMethod { .get }
    var task: RequestTask { .requestPlain }
    var headers: [String: String]? { nil }
    var sampleData: Data { Data(#"{"status":\#(status)}"#.utf8) }
}
