import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// The provider over real sockets against the project's own loopback server.
final class RealServerProviderTests: FeedServerTestCase {
    private func transport(timeout: TimeInterval = 5) -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        return URLSessionTransport(configuration: configuration)
    }

    private func classifiedError(_ path: String, timeout: TimeInterval = 5) -> APIError? {
        let provider = NetworkProvider<ServerRoute>(transport: transport(timeout: timeout))
        let result = answer(of: provider.rx.request(route(path)).filterSuccessfulStatusCodes().classifyErrors())
        guard case .failure(let error)? = result else {
            XCTFail("\(path): expected a failure, got \(String(describing: result))")
            return nil
        }
        return error as? APIError
    }

    func testSuccessDecodesTheEchoedRequest() throws {
        let provider = NetworkProvider<ServerRoute>(transport: transport())
        let result = answer(of: provider.rx.request(route("echo")).filterSuccessfulStatusCodes().map(Echo.self))
        let echo = try XCTUnwrap(try result?.get())
        XCTAssertEqual(echo.method, "GET")
        XCTAssertEqual(echo.path, "/echo")
    }

    func testRefusedPortIsAConnectionError() throws {
        let port = server.port
        server.stop()
        let provider = NetworkProvider<ServerRoute>(transport: transport())
        let target = ServerRoute(baseURL: URL(string: "http://127.0.0.1:\(port)/")!, path: "echo")
        let result = answer(of: provider.rx.request(target).classifyErrors())
        guard case .failure(let error)? = result, case .internetConnection(let root)? = error as? APIError else {
            return XCTFail("expected a connection error, got \(String(describing: result))")
        }
        XCTAssertEqual(root.urlError?.code, .cannotConnectToHost)
        XCTAssertTrue(root.isNotConnection)
    }

    func testHangWithAOneSecondTimeoutIsARequestTimeout() {
        guard let error = classifiedError("hang", timeout: 1) else { return }
        guard case .requestTimeout(let root) = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(root.urlError?.code, .timedOut)
    }

    func testDroppedConnectionIsALostConnection() {
        guard let error = classifiedError("drop") else { return }
        guard case .internetConnection(let root) = error else { return XCTFail("got \(error)") }
        XCTAssertTrue(root.isLostConnection, "\(root)")
    }

    func testHalfSentBodyIsALostConnection() {
        guard let error = classifiedError("half") else { return }
        guard case .internetConnection(let root) = error else { return XCTFail("got \(error)") }
        XCTAssertTrue(root.isLostConnection, "\(root)")
    }

    func testServiceUnavailableIsARestErrorWithTheServerCode() {
        guard let error = classifiedError("status/503") else { return }
        guard case .restError(_, let statusCode, let errorCode) = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(statusCode, 503)
        XCTAssertEqual(errorCode, "E503")
    }

    func testCancellingMidRequestReportsNothingAndBalancesActivity() {
        let changes = Recorder<String>()
        let activity = NetworkActivityPlugin { change, _ in changes.append(change == .began ? "began" : "ended") }
        let provider = NetworkProvider<ServerRoute>(transport: transport(), plugins: [activity])
        let events = Recorder<String>()
        let subscription = provider.rx.request(route("hang")).subscribe { _ in events.append("answered") }
        XCTAssertTrue(waitUntil { self.server.requestCount(path: "/hang") == 1 }, "the request reached the server")
        subscription.dispose()
        XCTAssertEqual(activity.inFlightCount, 0)
        XCTAssertEqual(changes.values, ["began", "ended"])
        // The session closes the cancelled task's connection as it ends the task, before the
        // later request starts; it reports both ends, in that order, on its serial delegate
        // queue, where the provider handles answers.
        XCTAssertTrue(waitUntil(timeout: 20) { self.server.openConnectionCount == 0 }, "the server sees the connection closed")
        let later = Recorder<Int>()
        provider.request(route("echo")) { later.append((try? $0.get().statusCode) ?? 0) }
        XCTAssertTrue(waitUntil(timeout: 20) { later.count == 1 })
        XCTAssertEqual(later.values, [200])
        XCTAssertEqual(events.count, 0, "a cancelled request reports nothing")
        XCTAssertEqual(changes.values, ["began", "ended", "began", "ended"])
    }

    func testInflightRequestsShareOneServerCall() {
        let provider = NetworkProvider<ServerRoute>(transport: transport(), trackInflights: true)
        let target = route("delay/400")
        let answers = Recorder<Int>()
        let bag = DisposeBag()
        for _ in 0..<4 {
            provider.rx.request(target).subscribe(onSuccess: { answers.append($0.statusCode) }).disposed(by: bag)
        }
        let leaving = provider.rx.request(target).subscribe(onSuccess: { answers.append(-$0.statusCode) })
        leaving.dispose()
        XCTAssertTrue(waitUntil { answers.count == 4 })
        XCTAssertEqual(answers.values, [200, 200, 200, 200], "the caller that left gets nothing")
        XCTAssertEqual(server.requestCount(path: "/delay/400"), 1)
    }

    func testInflightCallIsCancelledOnlyWhenTheLastCallerLeaves() {
        let provider = NetworkProvider<ServerRoute>(transport: transport(), trackInflights: true)
        let target = route("delay/300")
        let answers = Recorder<Int>()
        let first = provider.rx.request(target).subscribe(onSuccess: { answers.append($0.statusCode) })
        let second = provider.rx.request(target).subscribe(onSuccess: { answers.append($0.statusCode) })
        first.dispose()
        XCTAssertTrue(waitUntil { answers.count == 1 }, "the remaining caller still gets the answer")
        second.dispose()
        XCTAssertEqual(server.requestCount(path: "/delay/300"), 1)
    }

    func testValidationTypeFailsWithTheWholeResponseForRealRequests() throws {
        let provider = NetworkProvider<ValidatedRoute>(transport: transport())
        let result = answer(of: provider.rx.request(ValidatedRoute(baseURL: server.baseURL)))
        guard case .failure(let error)? = result, case .statusCode(let response)? = error as? ProviderError else {
            return XCTFail("expected ProviderError.statusCode, got \(String(describing: result))")
        }
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertTrue(String(decoding: response.data, as: UTF8.self).contains("E404"))
    }
}

/// A route the server does not know, validated as success codes only.
struct ValidatedRoute: TargetType {
    let baseURL: URL
    var path: String { "no-such-route" }
    var method: HTTPMethod { .get }
    var task: RequestTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// What `/echo` answers.
struct Echo: Decodable, Sendable {
    let method: String
    let path: String
}
