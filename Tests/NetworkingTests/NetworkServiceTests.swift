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

private struct User: Decodable, Sendable, Equatable {
    let id: Int
    let name: String
}

/// A service over a provider built by the test.
private struct StubService: NetworkService {
    let provider: NetworkProvider<ScriptedTarget>
    var envelope: ResponseEnvelope = .none
    var retryPolicy: RetryPolicy = .none
    var snakeCase = false

    func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        return decoder
    }
}

/// A service that keeps every default.
private struct DefaultService: NetworkService {
    let provider: NetworkProvider<ScriptedTarget>
}

final class NetworkServiceTests: LeakCheckingTestCase {
    private let ada = User(id: 1, name: "Ada")

    /// A provider answering `body` with `status` at once on the immediate scheduler.
    private func stub(_ body: String, status: Int = 200) -> NetworkProvider<ScriptedTarget> {
        stub(answer: .networkResponse(status, Data(body.utf8)))
    }

    private func stub(answer: EndpointSampleResponse) -> NetworkProvider<ScriptedTarget> {
        NetworkProvider<ScriptedTarget>(
            endpointClosure: { Endpoint(target: $0, sampleResponseClosure: { answer }) },
            stubClosure: NetworkProvider.immediatelyStub
        )
    }

    /// The synchronous outcome of a single answered on the immediate scheduler.
    private func outcome<T>(_ single: Single<T>) -> Result<T, any Error>? {
        let box = Recorder<String>()
        nonisolated(unsafe) var result: Result<T, any Error>?
        single.subscribe { value in
            result = value
            box.append("answered")
        }.dispose()
        XCTAssertEqual(box.count, 1, "the single did not answer synchronously")
        return result
    }

    private func failure<T>(_ single: Single<T>, file: StaticString = #filePath, line: UInt = #line) -> (any Error)? {
        guard case .failure(let error)? = outcome(single) else {
            XCTFail("expected a failure", file: file, line: line)
            return nil
        }
        return error
    }

    // MARK: - Envelopes

    func testNoEnvelopeDecodesTheWholeBody() throws {
        let service = DefaultService(provider: stub(#"{"id":1,"name":"Ada"}"#))
        XCTAssertEqual(service.envelope, ResponseEnvelope.none)
        XCTAssertEqual(try outcome(service.request(ScriptedTarget(), as: User.self))?.get(), ada)
    }

    func testResultEnvelopeDecodesTheResult() throws {
        let body = #"{"isSuccess":true,"code":0,"message":"","result":{"id":1,"name":"Ada"}}"#
        let service = StubService(provider: stub(body), envelope: .resultEnvelope)
        XCTAssertEqual(try outcome(service.request(ScriptedTarget(), as: User.self))?.get(), ada)
    }

    func testResultEnvelopeFailureIsAServerEnvelopeError() {
        let body = #"{"isSuccess":false,"code":"E42","message":"No such user","result":null}"#
        let service = StubService(provider: stub(body), envelope: .resultEnvelope)
        let error = failure(service.request(ScriptedTarget(), as: User.self))
        guard case .server(let code, let message, let response)? = error as? EnvelopeError else {
            return XCTFail("expected EnvelopeError.server, got \(String(describing: error))")
        }
        XCTAssertEqual(code, "E42")
        XCTAssertEqual(message, "No such user")
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(error?.localizedDescription, "Server error E42: No such user")
    }

    func testEnvelopeFailureIsUnderstoodByCatchREST() {
        let body = #"{"isSuccess":false,"code":7,"message":"Quota exceeded"}"#
        let envelope = ResponseEnvelope.resultEnvelope
        let single = stub(body).rx.request(ScriptedTarget())
            .map { response -> Response in
                try envelope.validate(response)
                return response
            }
            .catchREST()
        guard let apiError = failure(single) as? APIError else { return XCTFail("expected an APIError") }
        XCTAssertEqual(apiError.statusCode, 200)
        XCTAssertEqual(apiError.errorCodes, ["7"])
        XCTAssertEqual(apiError.serverMessage, "Quota exceeded")
        XCTAssertEqual(apiError.errorDescription, "Server error 7: Quota exceeded")
        XCTAssertTrue(apiError.underlyingError is EnvelopeError)
    }

    func testDataEnvelopeDecodesAPage() throws {
        let body = #"{"code":0,"msg":"ok","data":{"hasMore":true,"list":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}]}}"#
        let service = StubService(provider: stub(body), envelope: .dataEnvelope)
        let page = try outcome(service.request(ScriptedTarget(), as: ListPage<User>.self))?.get()
        XCTAssertEqual(page, ListPage(hasMore: true, list: [ada, User(id: 2, name: "Bob")]))
    }

    func testDataEnvelopeWithPayloadAtTheListDecodesItems() throws {
        let body = #"{"code":"200","msg":"ok","data":{"hasMore":false,"list":[{"id":1,"name":"Ada"}]}}"#
        let service = StubService(provider: stub(body), envelope: .dataEnvelope.payload(at: "data.list"))
        XCTAssertEqual(try outcome(service.request(ScriptedTarget(), as: [User].self))?.get(), [ada])
    }

    func testDataEnvelopeFailureCarriesCodeAndMsg() {
        let body = #"{"code":401,"msg":"Token expired","data":null}"#
        let service = StubService(provider: stub(body), envelope: .dataEnvelope)
        let error = failure(service.request(ScriptedTarget(), as: ListPage<User>.self)) as? EnvelopeError
        XCTAssertEqual(error?.code, "401")
        XCTAssertEqual(error?.serverMessage, "Token expired")
    }

    func testCustomEnvelopeWithNestedKeys() throws {
        let envelope = ResponseEnvelope(success: .codes(["OK"]), codeKey: "status.code", messageKey: "status.text",
                                        payloadKeyPath: "payload.user")
        let good = #"{"status":{"code":"OK"},"payload":{"user":{"id":1,"name":"Ada"}}}"#
        XCTAssertEqual(try outcome(StubService(provider: stub(good), envelope: envelope)
            .request(ScriptedTarget(), as: User.self))?.get(), ada)
        let bad = #"{"status":{"code":"LIMIT","text":"Slow down"}}"#
        let error = failure(StubService(provider: stub(bad), envelope: envelope)
            .request(ScriptedTarget(), as: User.self)) as? EnvelopeError
        XCTAssertEqual(error?.code, "LIMIT")
        XCTAssertEqual(error?.serverMessage, "Slow down")
    }

    func testFlagAcceptsNumbersAndText() throws {
        for (flag, succeeds) in [("1", true), ("0", false), (#""true""#, true), (#""false""#, false), ("false", false)] {
            let body = #"{"isSuccess":\#(flag),"result":{"id":1,"name":"Ada"}}"#
            let result = outcome(StubService(provider: stub(body), envelope: .resultEnvelope)
                .request(ScriptedTarget(), as: User.self))
            switch result {
            case .success?: XCTAssertTrue(succeeds, "flag \(flag)")
            case .failure(let error)?:
                XCTAssertFalse(succeeds, "flag \(flag)")
                guard case .server? = error as? EnvelopeError else { return XCTFail("flag \(flag): \(error)") }
            case nil: XCTFail("no answer")
            }
        }
    }

    // MARK: - Unreadable answers

    func testMissingVerdictIsMalformed() {
        let service = StubService(provider: stub(#"{"code":0,"result":{}}"#), envelope: .resultEnvelope)
        guard case .malformed(let reason, _)? = failure(service.request(ScriptedTarget(), as: User.self)) as? EnvelopeError else {
            return XCTFail("expected EnvelopeError.malformed")
        }
        XCTAssertTrue(reason.contains("isSuccess"), reason)

        let noCode = StubService(provider: stub(#"{"msg":"ok","data":{}}"#), envelope: .dataEnvelope)
        guard case .malformed? = failure(noCode.request(ScriptedTarget(), as: User.self)) as? EnvelopeError else {
            return XCTFail("expected EnvelopeError.malformed for a missing code")
        }
        let array = StubService(provider: stub("[1,2]"), envelope: .dataEnvelope)
        guard case .malformed? = failure(array.request(ScriptedTarget(), as: User.self)) as? EnvelopeError else {
            return XCTFail("expected EnvelopeError.malformed for a JSON array")
        }
    }

    func testNonJSONBodyIsAJSONMappingError() {
        let service = StubService(provider: stub("<html>oops</html>"), envelope: .resultEnvelope)
        guard case .jsonMapping(let response)? = failure(service.request(ScriptedTarget(), as: User.self)) as? ProviderError else {
            return XCTFail("expected ProviderError.jsonMapping")
        }
        XCTAssertEqual(response.data, Data("<html>oops</html>".utf8))
    }

    func testMissingPayloadAndWrongShapeAreMappingErrors() {
        let missing = StubService(provider: stub(#"{"isSuccess":true}"#), envelope: .resultEnvelope)
        guard case .jsonMapping? = failure(missing.request(ScriptedTarget(), as: User.self)) as? ProviderError else {
            return XCTFail("expected ProviderError.jsonMapping for a missing payload")
        }
        let wrong = StubService(provider: stub(#"{"isSuccess":true,"result":{"id":"one"}}"#), envelope: .resultEnvelope)
        guard case .objectMapping(let error, _)? = failure(wrong.request(ScriptedTarget(), as: User.self)) as? ProviderError else {
            return XCTFail("expected ProviderError.objectMapping")
        }
        XCTAssertTrue(error is DecodingError)
    }

    func testCustomDecoderIsUsed() throws {
        let body = #"{"isSuccess":true,"result":{"user_id":5,"display_name":"Eve"}}"#
        struct Profile: Decodable, Sendable, Equatable { let userId: Int; let displayName: String }
        let plain = StubService(provider: stub(body), envelope: .resultEnvelope)
        XCTAssertNotNil(failure(plain.request(ScriptedTarget(), as: Profile.self)))
        let snake = StubService(provider: stub(body), envelope: .resultEnvelope, snakeCase: true)
        XCTAssertEqual(try outcome(snake.request(ScriptedTarget(), as: Profile.self))?.get(), Profile(userId: 5, displayName: "Eve"))
    }

    // MARK: - Classification before the envelope

    func testErrorStatusIsClassifiedBeforeTheEnvelope() {
        let body = #"{"isSuccess":false,"code":"E500","message":"Database down"}"#
        let service = StubService(provider: stub(body, status: 500), envelope: .resultEnvelope)
        guard let apiError = failure(service.request(ScriptedTarget(), as: User.self)) as? APIError else {
            return XCTFail("expected an APIError")
        }
        XCTAssertEqual(apiError.statusCode, 500)
        XCTAssertEqual(apiError.errorCodes, ["E500"])
        XCTAssertTrue(apiError.underlyingError is ProviderError)
    }

    func testConnectionFailureIsClassified() {
        let service = StubService(provider: stub(answer: .networkError(URLError(.notConnectedToInternet))), envelope: .resultEnvelope)
        let apiError = failure(service.request(ScriptedTarget(), as: User.self)) as? APIError
        XCTAssertEqual(apiError?.isNoNetwork, true)
    }

    func testServiceRetryPolicyRunsOnTheProvidersScheduler() {
        let scheduler = TestScheduler()
        let success = #"{"isSuccess":true,"result":{"id":1,"name":"Ada"}}"#
        let script = ScriptedAnswers([.networkResponse(502, Data()), .networkResponse(200, Data(success.utf8))], scheduler: scheduler)
        let service = StubService(provider: script.provider(), envelope: .resultEnvelope,
                                  retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: .seconds(4), jitter: 0))
        let observer = scheduler.start { service.request(ScriptedTarget(), as: User.self) }
        XCTAssertEqual(script.requestTicks, [200, 204])
        XCTAssertEqual(observer.events.count, 2)
        guard case .next(let user)? = observer.events.first?.value else { return XCTFail("\(observer.events)") }
        XCTAssertEqual(user, ada)
        XCTAssertEqual(observer.events.first?.time, 204)
    }

    // MARK: - Completion and async forms

    func testCompletionFormDeliversOnceOnTheCallbackQueue() {
        let queue = DispatchQueue(label: "service.callback")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let service = StubService(provider: stub(#"{"isSuccess":true,"result":{"id":1,"name":"Ada"}}"#),
                                  envelope: .resultEnvelope)
        let results = Recorder<String>()
        let call = service.request(ScriptedTarget(), as: User.self, callbackQueue: queue) { result in
            let onQueue = DispatchQueue.getSpecific(key: key) == 7
            results.append("\((try? result.get())?.name ?? "failure") onQueue=\(onQueue)")
        }
        XCTAssertTrue(waitUntil { results.count == 1 })
        XCTAssertEqual(results.values, ["Ada onQueue=true"])
        XCTAssertFalse(call.isCancelled)
    }

    func testCancellationIsReportedOnTheCallbackQueue() {
        let queue = DispatchQueue(label: "service.cancel")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 8)
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(200, Data())], scheduler: scheduler)
        let service = StubService(provider: script.provider(stubClosure: NetworkProvider.delayedStub(.seconds(10))))
        let results = Recorder<String>()
        let call = service.request(ScriptedTarget(), as: User.self, callbackQueue: queue) { result in
            let onQueue = DispatchQueue.getSpecific(key: key) == 8
            results.append("\((try? result.get()) == nil ? "failure" : "answer") onQueue=\(onQueue)")
        }
        call.cancel()
        XCTAssertTrue(waitUntil { results.count == 1 })
        XCTAssertEqual(results.values, ["failure onQueue=true"])
    }

    func testCancelledCompletionFormReportsTheCancellationOnce() {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(200, Data(#"{"id":1,"name":"Ada"}"#.utf8))], scheduler: scheduler)
        let service = StubService(provider: script.provider(stubClosure: NetworkProvider.delayedStub(.seconds(10))))
        let results = Recorder<String>()
        let call = service.request(ScriptedTarget(), as: User.self) { result in
            switch result {
            case .success: results.append("answered")
            case .failure(ProviderError.underlying(let error as URLError, nil)): results.append("\(error.code == .cancelled ? "cancelled" : "\(error)")")
            case .failure(let error): results.append("failed: \(error)")
            }
        }
        scheduler.advanceTo(5)
        call.cancel()
        call.cancel()
        XCTAssertTrue(call.isCancelled)
        scheduler.start()
        XCTAssertEqual(results.values, ["cancelled"], "once, as the provider's completion form and Moya report it")
        XCTAssertEqual(script.served, 0)

        let answers = Recorder<String>()
        let kept = service.request(ScriptedTarget(), as: User.self) { result in
            answers.append((try? result.get().name) ?? "failure")
        }
        scheduler.start()
        XCTAssertEqual(answers.values, ["Ada"])
        XCTAssertFalse(kept.isCancelled)
    }

    func testAsyncFormDecodesAndThrowsTypedErrors() async throws {
        let service = StubService(provider: stub(#"{"isSuccess":true,"result":{"id":1,"name":"Ada"}}"#),
                                  envelope: .resultEnvelope)
        let user = try await service.request(ScriptedTarget(), as: User.self)
        XCTAssertEqual(user, ada)

        let failing = StubService(provider: stub(#"{"isSuccess":false,"code":"E1"}"#), envelope: .resultEnvelope)
        do {
            _ = try await failing.request(ScriptedTarget(), as: User.self)
            XCTFail("expected a failure")
        } catch let error as EnvelopeError {
            XCTAssertEqual(error.code, "E1")
        }
    }

    func testCancellingTheAwaitingTaskCancelsTheRequest() async throws {
        let scheduler = TestScheduler()
        let script = ScriptedAnswers([.networkResponse(200, Data(#"{"id":1,"name":"Ada"}"#.utf8))], scheduler: scheduler)
        let service = DefaultService(provider: script.provider(stubClosure: NetworkProvider.delayedStub(.seconds(30))))
        let task = Task { try await service.request(ScriptedTarget(), as: User.self) }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        scheduler.start()
        XCTAssertEqual(script.served, 0, "the cancelled stub still answered")
    }

    // MARK: - Real sockets

    private struct EchoTarget: TargetType {
        let baseURL: URL
        var path = "/echo"
        var method = HTTPMethod.put
        var task: RequestTask { .requestParameters(parameters: ["q": "1"], encoding: URLEncoding.queryString) }
        var headers: [String: String]? { nil }
    }

    private struct EchoService: NetworkService {
        let provider = NetworkProvider<EchoTarget>()
        var envelope: ResponseEnvelope { ResponseEnvelope(success: .always, payloadKeyPath: "method") }
    }

    private struct Echo: Decodable, Sendable { let method: String; let path: String; let query: String }

    func testAgainstFeedServer() async throws {
        let server = try FeedServer()
        defer { server.stop() }
        let method = try await EchoService().request(EchoTarget(baseURL: server.baseURL), as: String.self)
        XCTAssertEqual(method, "PUT")

        struct WholeEcho: NetworkService { let provider = NetworkProvider<EchoTarget>() }
        let echo = try await WholeEcho().request(EchoTarget(baseURL: server.baseURL), as: Echo.self)
        XCTAssertEqual(echo.path, "/echo")
        XCTAssertEqual(echo.query, "q=1")

        do {
            _ = try await WholeEcho().request(EchoTarget(baseURL: server.baseURL, path: "/status/404"), as: Echo.self)
            XCTFail("expected a failure")
        } catch let error as APIError {
            XCTAssertEqual(error.statusCode, 404)
            XCTAssertEqual(error.errorCodes, ["E404"])
        }
        XCTAssertEqual(server.requestCount(path: "/echo"), 2)
    }
}
