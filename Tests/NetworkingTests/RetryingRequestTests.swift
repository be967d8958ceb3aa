import FeedServer
import Foundation
import Networking
import Reactive
import ReactiveTesting
import TestSupport
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class RetryingRequestTests: LeakCheckingTestCase {
    /// Waits 10 s then 20 s, jittered by a fixed 10 %: 9 s, 18 s, 36 s.
    private let policy = RetryPolicy(maxAttempts: 4, baseDelay: .seconds(10), multiplier: 2, maxDelay: .seconds(100),
                                     jitter: 0.2, random: { 0.5 })

    private func statuses(_ events: [Recorded<Event<Response>>]) -> [String] {
        events.map { recorded in
            switch recorded.value {
            case .next(let response): return "next(\(recorded.time), \(response.statusCode))"
            case .completed: return "completed(\(recorded.time))"
            case .error(let error): return "error(\(recorded.time), \(error))"
            }
        }
    }

    func testRetries503UntilSuccessAtJitteredBackoffTicks() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(503, Data()), .networkResponse(503, Data()),
                                      .networkResponse(200, Data("ok".utf8))], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let policy = self.policy
        let observer = scheduler.start { provider.rx.request(ScriptedTarget(), retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200, 209, 227])
        XCTAssertEqual(statuses(observer.events), ["next(227, 200)", "completed(227)"])
    }

    func testGivesUpAfterMaxAttemptsWithTheLastResponse() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(503, Data(#"{"code":"busy"}"#.utf8))], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(10), jitter: 0)
        let observer = scheduler.start { provider.rx.request(ScriptedTarget(), retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200, 210, 230])
        XCTAssertEqual(statuses(observer.events), ["next(230, 503)", "completed(230)"])
    }

    func testExhaustedRetriesClassifyAsRESTErrorDownstream() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(503, Data(#"{"code":"busy"}"#.utf8))], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let policy = RetryPolicy(maxAttempts: 2, baseDelay: .seconds(1), jitter: 0)
        let observer = scheduler.start {
            provider.rx.request(ScriptedTarget(), retryPolicy: policy).filterSuccessfulStatusCodes().classifyErrors()
        }
        XCTAssertEqual(script.requestTicks, [200, 201])
        guard case .error(let error)? = observer.events.last?.value, let apiError = error as? APIError else {
            return XCTFail("expected a classified failure, got \(observer.events)")
        }
        XCTAssertEqual(apiError.statusCode, 503)
        XCTAssertEqual(apiError.errorCodes, ["busy"])
        XCTAssertEqual(observer.events.last?.time, 201)
    }

    func testPostIsNotRetriedUnlessThePolicyOptsIn() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(503, Data()), .networkResponse(200, Data())], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let post = ScriptedTarget(method: .post)
        let policy = self.policy
        let observer = scheduler.start { provider.rx.request(post, retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200])
        XCTAssertEqual(statuses(observer.events), ["next(200, 503)", "completed(200)"])

        let optInScheduler = TestScheduler()
        let optInScript = ScriptedAnswers([.networkResponse(503, Data()), .networkResponse(200, Data())],
                                          scheduler: optInScheduler)
        let optInProvider = optInScript.provider(ScriptedTarget.self)
        var optIn = policy
        optIn.retriesNonIdempotent = true
        let optInPolicy = optIn
        let optInObserver = optInScheduler.start { optInProvider.rx.request(post, retryPolicy: optInPolicy) }
        XCTAssertEqual(optInScript.requestTicks, [200, 209])
        XCTAssertEqual(statuses(optInObserver.events), ["next(209, 200)", "completed(209)"])
    }

    /// A `MultiTarget` answers as the target it wraps: a plain `POST` is retried when the policy
    /// opts in (`retriesNonIdempotent`), as it is unwrapped, and an `IdempotentTarget` keeps its say.
    func testAMultiTargetIsRetriedAsTheTargetItWraps() {
        var optIn = policy
        optIn.retriesNonIdempotent = true
        let post = ScriptedTarget(method: .post)
        XCTAssertTrue(optIn.allowsRetry(of: post))
        XCTAssertTrue(optIn.allowsRetry(of: MultiTarget(post)))
        XCTAssertFalse(policy.allowsRetry(of: MultiTarget(post)))
        XCTAssertFalse(optIn.allowsRetry(of: MultiTarget(OptingTarget(method: .get, isIdempotent: false))))
        XCTAssertTrue(policy.allowsRetry(of: MultiTarget(OptingTarget(method: .post, isIdempotent: true))))

        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(503, Data()), .networkResponse(200, Data())], scheduler: scheduler)
        let provider = script.provider(MultiTarget.self)
        let policy = optIn
        let observer = scheduler.start { provider.rx.request(MultiTarget(post), retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200, 209])
        XCTAssertEqual(statuses(observer.events), ["next(209, 200)", "completed(209)"])
    }

    private struct OptingTarget: IdempotentTarget {
        var method: HTTPMethod
        var isIdempotent: Bool
        var baseURL: URL { URL(fixed: "http://127.0.0.1:9/api") }
        var path: String { "/opting" }
        var task: RequestTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    private struct DefaultIdempotency: IdempotentTarget {
        var method: HTTPMethod
        var baseURL: URL { URL(fixed: "http://127.0.0.1:9/api") }
        var path: String { "/default" }
        var task: RequestTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    private func attemptTicks(_ target: OptingTarget) -> [Int] {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(503, Data()), .networkResponse(200, Data())], scheduler: scheduler)
        let provider = script.provider(OptingTarget.self)
        let policy = self.policy
        _ = scheduler.start { provider.rx.request(target, retryPolicy: policy) }
        return script.requestTicks
    }

    func testTargetCanOptInOrOutOfRetries() {
        XCTAssertEqual(attemptTicks(OptingTarget(method: .post, isIdempotent: true)), [200, 209])
        XCTAssertEqual(attemptTicks(OptingTarget(method: .get, isIdempotent: false)), [200])
        XCTAssertTrue(policy.allowsRetry(of: OptingTarget(method: .patch, isIdempotent: true)))
        XCTAssertFalse(policy.allowsRetry(of: OptingTarget(method: .get, isIdempotent: false)))
        XCTAssertFalse(policy.allowsRetry(of: ScriptedTarget(method: .post)))
        XCTAssertTrue(policy.allowsRetry(of: ScriptedTarget(method: .put)))
        XCTAssertTrue(DefaultIdempotency(method: .delete).isIdempotent)
        XCTAssertFalse(DefaultIdempotency(method: .post).isIdempotent)
    }

    func testConnectionErrorsAndTimeoutsAreRetriedButNotClientErrors() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkError(URLError(.cannotConnectToHost)), .networkError(URLError(.timedOut)),
                                      .networkResponse(404, Data()), .networkResponse(200, Data())], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let policy = self.policy
        let observer = scheduler.start { provider.rx.request(ScriptedTarget(), retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200, 209, 227])
        XCTAssertEqual(statuses(observer.events), ["next(227, 404)", "completed(227)"])
    }

    func testCancelIsNotRetried() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkError(URLError(.cancelled)), .networkResponse(200, Data())], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let policy = self.policy
        let observer = scheduler.start { provider.rx.request(ScriptedTarget(), retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200])
        guard case .error(let error)? = observer.events.last?.value else { return XCTFail("\(observer.events)") }
        XCTAssertTrue(error.isCancelled)
    }

    func testRetryAfterSecondsReplacesTheBackoff() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([ScriptedAnswers.response(429, headers: ["Retry-After": "42"]),
                                      .networkResponse(200, Data())], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let policy = self.policy
        let observer = scheduler.start { provider.rx.request(ScriptedTarget(), retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200, 242])
        XCTAssertEqual(statuses(observer.events), ["next(242, 200)", "completed(242)"])
    }

    func testRetryAfterDateIsMeasuredFromTheSchedulersClock() {
        let scheduler = TestScheduler()
        // Tick 300 is 00:05:00 on 1 January 1970 on a one-second-per-tick scheduler.
        let script = ScriptedAnswers([ScriptedAnswers.response(503, headers: ["Retry-After": "Thu, 01 Jan 1970 00:05:00 GMT"]),
                                      .networkResponse(200, Data())], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let policy = self.policy
        let observer = scheduler.start { provider.rx.request(ScriptedTarget(), retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200, 300])
        XCTAssertEqual(statuses(observer.events), ["next(300, 200)", "completed(300)"])
    }

    func testRetryAfterIsCappedByMaxDelay() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([ScriptedAnswers.response(503, headers: ["Retry-After": "3600"]),
                                      .networkResponse(200, Data())], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let policy = RetryPolicy(maxAttempts: 2, baseDelay: .seconds(1), maxDelay: .seconds(50))
        _ = scheduler.start { provider.rx.request(ScriptedTarget(), retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200, 250])
    }

    func testTimeoutOfEachAttemptIsRetried() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(200, Data())], scheduler: scheduler)
        let delays = Recorder<Int>()
        let provider = script.provider(ScriptedTarget.self, stubClosure: { _ in
            delays.append(0)
            return delays.count == 1 ? .delayed(.seconds(30)) : .delayed(.seconds(2))
        }, requestTimeout: .seconds(5))
        let policy = self.policy
        let observer = scheduler.start { provider.rx.request(ScriptedTarget(), retryPolicy: policy) }
        // Attempt 1 times out at 205; the retry waits 9 s, starts at 214 and answers at 216.
        XCTAssertEqual(script.requestTicks, [200, 214])
        XCTAssertEqual(script.served, 1)
        XCTAssertEqual(statuses(observer.events), ["next(216, 200)", "completed(216)"])
    }

    func testDisposingDuringTheWaitStopsFurtherAttempts() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(503, Data()), .networkResponse(200, Data())], scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let policy = self.policy
        let observer = scheduler.start(disposed: 205) { provider.rx.request(ScriptedTarget(), retryPolicy: policy) }
        XCTAssertEqual(script.requestTicks, [200])
        XCTAssertTrue(observer.events.isEmpty)
    }

    func testDisposingDuringARealWaitReleasesTheRequest() {
        let attempts = Recorder<Int>()
        let single = Single<Response>.deferred {
            attempts.append(1)
            return .just(Response(statusCode: 503, data: Data()))
        }
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let subscription = single.retry(RetryPolicy(maxAttempts: 2, baseDelay: .seconds(30), jitter: 0),
                                        method: .get, scheduler: scheduler).subscribe { _ in }
        XCTAssertEqual(attempts.count, 1)
        subscription.dispose()
        // tearDown checks that no subscription outlives the dispose although the timer is still pending.
    }

    func testOperatorOnAnySingleOfResponse() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkError(URLError(.networkConnectionLost)), .networkResponse(200, Data())],
                                     scheduler: scheduler)
        let provider = script.provider(ScriptedTarget.self)
        let observer = scheduler.start {
            provider.rx.request(ScriptedTarget())
                .retry(RetryPolicy(maxAttempts: 2, baseDelay: .seconds(3), jitter: 0), method: .delete, scheduler: scheduler)
        }
        XCTAssertEqual(script.requestTicks, [200, 203])
        XCTAssertEqual(statuses(observer.events), ["next(203, 200)", "completed(203)"])
    }

    // MARK: - Real sockets

    private struct FlakyTarget: TargetType {
        let baseURL: URL
        let failures: Int
        let key: String
        var method = HTTPMethod.get
        var path: String { "/flaky" }
        var task: RequestTask {
            .requestParameters(parameters: ["failures": failures, "key": key], encoding: URLEncoding.queryString)
        }
        var headers: [String: String]? { nil }
    }

    private func run(_ single: Single<Response>) -> Result<Response, any Error>? {
        let outcome = Recorder<Result<Response, any Error>>()
        let subscription = single.subscribe { outcome.append($0) }
        defer { subscription.dispose() }
        XCTAssertTrue(waitUntil(timeout: 10) { outcome.count == 1 }, "no answer in time")
        return outcome.values.first
    }

    func testFlakyServerIsRetriedUntilItAnswers() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let provider = NetworkProvider<FlakyTarget>(scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), jitter: 0)
        let target = FlakyTarget(baseURL: server.baseURL, failures: 2, key: "retry-\(UUID().uuidString)")
        let result = run(provider.rx.request(target, retryPolicy: policy))
        XCTAssertEqual(try result?.get().statusCode, 200)
        XCTAssertEqual(server.requestCount(path: "/flaky"), 3)
    }

    func testFlakyServerBeyondMaxAttemptsGivesTheLast503() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let provider = NetworkProvider<FlakyTarget>(scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), jitter: 0)
        let target = FlakyTarget(baseURL: server.baseURL, failures: 5, key: "retry-\(UUID().uuidString)")
        let result = run(provider.rx.request(target, retryPolicy: policy).filterSuccessfulStatusCodes().classifyErrors())
        guard case .failure(let error)? = result, let apiError = error as? APIError else {
            return XCTFail("expected a classified failure, got \(String(describing: result))")
        }
        XCTAssertEqual(apiError.statusCode, 503)
        XCTAssertEqual(apiError.errorCodes, ["E503"])
        XCTAssertEqual(server.requestCount(path: "/flaky"), 3)
    }

    func testZeroWaitOnTheImmediateSchedulerRetriesInline() {
        let served = Recorder<Int>()
        let provider = NetworkProvider<ScriptedTarget>(
            endpointClosure: { target in
                Endpoint(target: target, sampleResponseClosure: {
                    served.append(1)
                    return served.count < 3 ? ScriptedAnswers.response(503, headers: ["Retry-After": "0"])
                        : .networkResponse(200, Data())
                })
            },
            stubClosure: NetworkProvider.immediatelyStub
        )
        let result = run(provider.rx.request(ScriptedTarget(), retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .seconds(60))))
        XCTAssertEqual(try result?.get().statusCode, 200)
        XCTAssertEqual(served.count, 3)
    }

    func testRetryAfterFromTheServerIsHonoured() throws {
        let server = try FeedServer()
        defer { server.stop() }
        struct StatusTarget: TargetType {
            let baseURL: URL
            var path: String { "/status/503" }
            var method: HTTPMethod { .get }
            var task: RequestTask { .requestParameters(parameters: ["retryAfter": "0"], encoding: URLEncoding.queryString) }
            var headers: [String: String]? { nil }
        }
        let provider = NetworkProvider<StatusTarget>()
        // Without the server's `Retry-After: 0` the second attempt would wait a minute.
        let policy = RetryPolicy(maxAttempts: 2, baseDelay: .seconds(60), maxDelay: .seconds(60))
        let result = run(provider.rx.request(StatusTarget(baseURL: server.baseURL), retryPolicy: policy))
        XCTAssertEqual(try result?.get().statusCode, 503)
        XCTAssertEqual(try result?.get().headerValue("Retry-After"), "0")
        XCTAssertEqual(server.requestCount(path: "/status/503"), 2)
    }

    func testFlakyServerPostIsSentOnce() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let provider = NetworkProvider<FlakyTarget>(scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), jitter: 0)
        let target = FlakyTarget(baseURL: server.baseURL, failures: 1, key: "retry-\(UUID().uuidString)", method: .post)
        let result = run(provider.rx.request(target, retryPolicy: policy))
        XCTAssertEqual(try result?.get().statusCode, 503)
        XCTAssertEqual(server.requestCount(path: "/flaky"), 1)
    }

    func testRefusedPortIsRetriedThenClassifiedAsConnectionError() throws {
        let server = try FeedServer()
        let baseURL = server.baseURL
        server.stop()
        let provider = NetworkProvider<FlakyTarget>(scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        let attempts = Recorder<Int>()
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), jitter: 0)
        let target = FlakyTarget(baseURL: baseURL, failures: 0, key: "refused")
        let single = Single<Response>.deferred {
            attempts.append(1)
            return provider.rx.request(target)
        }
        let result = run(single.retry(policy, method: .get, scheduler: provider.scheduler).classifyErrors())
        guard case .failure(let error)? = result, let apiError = error as? APIError else {
            return XCTFail("expected a classified failure, got \(String(describing: result))")
        }
        XCTAssertTrue(apiError.isNoNetwork)
        XCTAssertEqual(attempts.count, 3)
    }
}
