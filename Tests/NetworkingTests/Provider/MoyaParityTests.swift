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

/// `MultiTarget`, endpoint equality, `provider.endpoint(_:)`, `inflightRequests`,
/// `CredentialsPlugin`, `Observable<Response>` operators and `ProviderError`'s NSError bridging.
final class MoyaParityTests: LeakCheckingTestCase {
    private struct Echo: Decodable {
        let method: String
        let path: String
        let headers: [String: String]
    }

    func testMultiTargetForwardsEverythingAndServesTwoTargetTypes() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = NetworkProvider<MultiTarget>(
            endpointClosure: { target in
                if let api = target.target as? StubbedAPI { return stubbedEndpoint(api) }
                return NetworkProvider<MultiTarget>.defaultEndpointMapping(for: target)
            },
            stubClosure: NetworkProvider.immediatelyStub, scheduler: scheduler)
        let res = scheduler.start {
            Observable.merge(provider.rx.request(MultiTarget(StubbedAPI.status(418, body: "tea"))).map(\.statusCode).asObservable(),
                             provider.rx.request(.target(MinimalTarget())).map(\.statusCode).asObservable())
        }
        XCTAssertEqual(res.events, [.next(200, 418), .next(200, 200), .completed(200)])
        let wrapped = MultiTarget(TestTarget(path: "/p", method: .patch, headers: ["A": "b"], authorizationType: .bearer))
        XCTAssertEqual(wrapped.baseURL, URL(string: "http://127.0.0.1:8080/api"))
        XCTAssertEqual(wrapped.path, "/p")
        XCTAssertEqual(wrapped.method, .patch)
        XCTAssertEqual(wrapped.headers, ["A": "b"])
        XCTAssertEqual(wrapped.authorizationType, .bearer)
        XCTAssertFalse(wrapped.isIdempotent)
        XCTAssertNil(MultiTarget(MinimalTarget()).authorizationType)
        XCTAssertEqual(MultiTarget(StubbedAPI.validated(200)).validationType, .successCodes)
        XCTAssertEqual(MultiTarget(StubbedAPI.ok).sampleData, StubbedAPI.ok.sampleData)
        let request = AccessTokenPlugin { _ in "tok" }.prepare(URLRequest(url: wrapped.baseURL), target: wrapped)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Bearer tok")
    }

    func testEndpointsAreEqualWhenTheyBuildTheSameRequest() throws {
        let provider = NetworkProvider<TestTarget>()
        let target = TestTarget(task: .requestParameters(parameters: ["a": 1], encoding: URLEncoding.queryString))
        XCTAssertEqual(provider.endpoint(target), provider.endpoint(target))
        XCTAssertEqual(provider.endpoint(target).url, "http://127.0.0.1:8080/api/items")
        XCTAssertEqual(Set([provider.endpoint(target), provider.endpoint(target)]).count, 1)
        let other = TestTarget(task: .requestParameters(parameters: ["a": 2], encoding: URLEncoding.queryString))
        XCTAssertNotEqual(provider.endpoint(target), provider.endpoint(other))
        XCTAssertNotEqual(endpoint(.requestPlain), endpoint(.requestPlain, method: .post))
        XCTAssertNotEqual(endpoint(.requestPlain), endpoint(.requestPlain, headers: ["X": "1"]))
        XCTAssertNotEqual(endpoint(.requestData(Data("a".utf8))), endpoint(.requestData(Data("b".utf8))))
        XCTAssertEqual(endpoint(.requestPlain, url: ""), endpoint(.requestPlain, url: ""), "unbuildable: same URL and method")

        let files = FileManager.default.temporaryDirectory
        let one = files.appendingPathComponent("eq-\(UUID().uuidString)")
        let two = files.appendingPathComponent("eq-\(UUID().uuidString)")
        try Data("x".utf8).write(to: one)
        try Data("x".utf8).write(to: two)
        defer { try? FileManager.default.removeItem(at: one); try? FileManager.default.removeItem(at: two) }
        XCTAssertEqual(endpoint(.uploadFile(one), method: .post), endpoint(.uploadFile(one), method: .post))
        XCTAssertNotEqual(endpoint(.uploadFile(one), method: .post), endpoint(.uploadFile(two), method: .post))
        let parts = [MultipartFormBodyPart(provider: .data(Data("v".utf8)), name: "k")]
        XCTAssertEqual(endpoint(.uploadMultipart(parts), method: .post), endpoint(.uploadMultipart(parts), method: .post),
                       "equal despite each build drawing its own boundary")
        XCTAssertEqual(endpoint(.uploadMultipart(parts), method: .post).hashValue, endpoint(.uploadMultipart(parts), method: .post).hashValue)
        XCTAssertNotEqual(endpoint(.uploadMultipart(parts), method: .post),
                          endpoint(.uploadMultipart([MultipartFormBodyPart(provider: .data(Data("w".utf8)), name: "k")]), method: .post))
        let form = MultipartFormData()
        XCTAssertEqual(endpoint(.uploadMultipartFormData(form), method: .post), endpoint(.uploadMultipartFormData(form), method: .post))
        let filled = MultipartFormData()
        filled.append(Data("v".utf8), name: "k")
        XCTAssertNotEqual(endpoint(.uploadMultipartFormData(form), method: .post),
                          endpoint(.uploadMultipartFormData(filled), method: .post))
    }

    func testInflightRequestsListsWhatIsSharedUntilItAnswers() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let provider = NetworkProvider<ServerRoute>(transport: URLSessionTransport(configuration: .ephemeral), trackInflights: true)
        let target = ServerRoute(baseURL: server.baseURL, path: "delay/300")
        XCTAssertTrue(provider.inflightRequests.isEmpty)
        let answers = Recorder<Int>()
        provider.request(target) { answers.append((try? $0.get().statusCode) ?? -1) }
        provider.request(target) { answers.append((try? $0.get().statusCode) ?? -1) }
        let inflight = provider.inflightRequests
        XCTAssertEqual(inflight.count, 1)
        XCTAssertEqual(inflight.keys.first, provider.endpoint(target))
        XCTAssertEqual(inflight.values.first?.count, 2)
        XCTAssertTrue(waitUntil { answers.count == 2 })
        XCTAssertEqual(answers.values, [200, 200])
        XCTAssertTrue(provider.inflightRequests.isEmpty)
        XCTAssertEqual(server.requestCount(path: "/delay/300"), 1)
        XCTAssertTrue(NetworkProvider<ServerRoute>(trackInflights: false).inflightRequests.isEmpty)
    }

    func testCredentialsPluginSendsBasicAuthorization() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let plugin = CredentialsPlugin(allowsPlainHTTP: true) { target in
            target.path == "echo" ? URLCredential(user: "ann", password: "pa:ss", persistence: .none) : nil
        }
        let provider = NetworkProvider<ServerRoute>(transport: URLSessionTransport(configuration: .ephemeral), plugins: [plugin])
        let results = Recorder<Result<Echo, any Error>>()
        let subscription = provider.rx.request(ServerRoute(baseURL: server.baseURL, path: "echo")).map(Echo.self)
            .subscribe { results.append($0) }
        XCTAssertTrue(waitUntil { results.count == 1 })
        subscription.dispose()
        let echo = try XCTUnwrap(results.values.first).get()
        let authorization = echo.headers.first { $0.key.lowercased() == "authorization" }?.value
        XCTAssertEqual(authorization, "Basic " + Data("ann:pa:ss".utf8).base64EncodedString())
        let request = URLRequest(url: server.baseURL)
        XCTAssertNil(plugin.prepare(request, target: ServerRoute(baseURL: server.baseURL, path: "other")).value(forHTTPHeaderField: "Authorization"))
        var preset = request
        preset.setValue("Bearer x", forHTTPHeaderField: "Authorization")
        XCTAssertEqual(plugin.prepare(preset, target: ServerRoute(baseURL: server.baseURL, path: "echo")).value(forHTTPHeaderField: "Authorization"),
                       "Bearer x")
    }

    /// Runs `operators` over a cold stream of a 200 JSON response at 10 and a 302 at 20, on a fresh scheduler.
    private func run<Element>(_ operators: @escaping @Sendable (Observable<Response>) -> Observable<Element>) -> [Recorded<Event<Element>>] {
        let scheduler = TestScheduler(initialClock: 0)
        let ok = Response(statusCode: 200, data: Data(#"{"name":"ann","inner":{"title":"t"}}"#.utf8))
        let redirect = Response(statusCode: 302, data: Data())
        let responses = scheduler.createColdObservable([.next(10, ok), .next(20, redirect), .completed(30)]).asObservable()
        return scheduler.start { operators(responses) }.events
    }

    func testResponseOperatorsOnObservables() {
        let names = run { $0.filterSuccessfulStatusCodes().map(Named.self) }
        XCTAssertEqual(names.count, 2)
        XCTAssertEqual(names.first, .next(210, Named(name: "ann")))
        guard case .error(ProviderError.statusCode(let failed))? = names.last?.value else { return XCTFail("\(names)") }
        XCTAssertEqual(failed.statusCode, 302)
        XCTAssertEqual(run { $0.filterSuccessfulStatusAndRedirectCodes().map(\.statusCode) }, [.next(210, 200), .next(220, 302), .completed(230)])
        XCTAssertEqual(run { $0.filter(statusCodes: 200...200).mapString(atKeyPath: "inner.title") }.first, .next(210, "t"))
        let exact = run { $0.filter(statusCode: 302).map(\.statusCode) }
        XCTAssertEqual(exact.count, 1, "the first element fails the filter")
        guard case .error(ProviderError.statusCode)? = exact.first?.value else { return XCTFail("\(exact)") }
        let json = run { $0.mapJSON().map { ($0 as? [String: Any])?["name"] as? String ?? "?" } }
        XCTAssertEqual(json.first, .next(210, "ann"))
        guard case .error(ProviderError.jsonMapping)? = json.last?.value else { return XCTFail("\(json)") }
        XCTAssertEqual(run { $0.take(1).map(String.self, atKeyPath: "name") }, [.next(210, "ann"), .completed(210)])
    }

    func testProviderErrorBridgesToNSErrorWithItsUnderlyingError() {
        let error = ProviderError.underlying(URLError(.timedOut), nil) as NSError
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        XCTAssertEqual(underlying?.domain, NSURLErrorDomain)
        XCTAssertEqual(underlying?.code, URLError.timedOut.rawValue)
        XCTAssertEqual(error.userInfo[NSLocalizedDescriptionKey] as? String, ProviderError.underlying(URLError(.timedOut), nil).errorDescription)
        let status = ProviderError.statusCode(Response(statusCode: 500, data: Data())) as NSError
        XCTAssertNil(status.userInfo[NSUnderlyingErrorKey])
        XCTAssertEqual(status.localizedDescription, "Status code 500 didn't fall within the given range.")
    }
}
