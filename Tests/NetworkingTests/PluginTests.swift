import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FeedServer
import Locking
import Networking
import Synchronization
import TestSupport
import XCTest

private struct NoOpPlugin: PluginType {}

final class PluginTests: LeakCheckingTestCase {
    func testDefaultHooksChangeNothing() {
        let request = URLRequest(url: URL(string: "http://127.0.0.1/")!)
        let plugin = NoOpPlugin()
        XCTAssertEqual(plugin.prepare(request, target: TestTarget()), request)
        let result: Result<Response, ProviderError> = .success(Response(statusCode: 200, data: Data("x".utf8)))
        guard case .success(let response) = plugin.process(result, target: TestTarget()) else { return XCTFail("process") }
        XCTAssertEqual(response.data, Data("x".utf8))
    }

    func testAccessTokenPluginSetsTheRightHeader() {
        let request = URLRequest(url: URL(string: "http://127.0.0.1/")!)
        let plugin = AccessTokenPlugin { _ in "tok" }
        let cases: [(AuthorizationType?, String?)] = [(.bearer, "Bearer tok"), (.basic, "Basic tok"), (.custom("Token"), "Token tok"), (nil, nil)]
        for (type, expected) in cases {
            let prepared = plugin.prepare(request, target: TestTarget(authorizationType: type))
            XCTAssertEqual(prepared.value(forHTTPHeaderField: "Authorization"), expected)
        }
        XCTAssertNil(plugin.prepare(request, target: MinimalTarget()).value(forHTTPHeaderField: "Authorization"))
        var existing = request
        existing.setValue("Bearer old", forHTTPHeaderField: "Authorization")
        XCTAssertEqual(plugin.prepare(existing, target: TestTarget(authorizationType: .bearer)).value(forHTTPHeaderField: "Authorization"), "Bearer tok")
    }

    private static let basicAnn = "Basic " + Data("ann:pw".utf8).base64EncodedString()

    private func credentials(allowsPlainHTTP: Bool = false) -> CredentialsPlugin {
        CredentialsPlugin(allowsPlainHTTP: allowsPlainHTTP) { _ in
            URLCredential(user: "ann", password: "pw", persistence: .none)
        }
    }

    private func authorization(_ plugin: CredentialsPlugin, url: String, base: String) -> String? {
        let target = TestTarget(baseURL: URL(string: base)!)
        return plugin.prepare(URLRequest(url: URL(string: url)!), target: target).value(forHTTPHeaderField: "Authorization")
    }

    func testCredentialsGoOnlyToTheTargetsHostOverHTTPS() {
        let plugin = credentials()
        XCTAssertEqual(authorization(plugin, url: "https://api.example.com/v1/me", base: "https://api.example.com/v1"), Self.basicAnn)
        XCTAssertEqual(authorization(plugin, url: "https://API.Example.com/me", base: "https://api.example.COM"), Self.basicAnn,
                       "host names compare without case")
        XCTAssertNil(authorization(plugin, url: "https://evil.example.net/v1/me", base: "https://api.example.com/v1"),
                     "a request pointed elsewhere (an endpoint closure, another plugin) carries no credential")
        XCTAssertNil(authorization(plugin, url: "https://api.example.com.evil.net/", base: "https://api.example.com"))
        XCTAssertNil(authorization(plugin, url: "http://api.example.com/v1/me", base: "http://api.example.com/v1"),
                     "never in clear text unless allowed")
        XCTAssertNil(authorization(plugin, url: "ftp://api.example.com/f", base: "ftp://api.example.com"))
        let insecure = credentials(allowsPlainHTTP: true)
        XCTAssertTrue(insecure.allowsPlainHTTP)
        XCTAssertEqual(authorization(insecure, url: "http://127.0.0.1:8080/me", base: "http://127.0.0.1:8080"), Self.basicAnn)
        XCTAssertNil(authorization(insecure, url: "http://10.0.0.1/me", base: "http://127.0.0.1:8080"),
                     "allowing http does not allow another host")
    }

    private struct HeaderEcho: Decodable {
        let headers: [String: String]
    }

    func testCredentialsAreNotSentToAPlainHTTPServerByDefault() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let results = Recorder<Result<HeaderEcho, any Error>>()
        let provider = NetworkProvider<ServerRoute>(transport: URLSessionTransport(configuration: .ephemeral), plugins: [credentials()])
        let subscription = provider.rx.request(ServerRoute(baseURL: server.baseURL, path: "echo")).map(HeaderEcho.self)
            .subscribe { results.append($0) }
        XCTAssertTrue(waitUntil { results.count == 1 })
        subscription.dispose()
        let echo = try XCTUnwrap(results.values.first).get()
        XCTAssertNil(echo.headers.first { $0.key.lowercased() == "authorization" }, "\(echo.headers)")
    }

    func testNetworkActivityPluginCountsAndReports() {
        let changes = Lock<[NetworkActivityChangeType]>([])
        let plugin = NetworkActivityPlugin { change, _ in changes.withLock { $0.append(change) } }
        let request = PreparedRequest(request: URLRequest(url: URL(string: "http://127.0.0.1/")!))
        plugin.willSend(request, target: TestTarget())
        plugin.willSend(request, target: TestTarget())
        XCTAssertEqual(plugin.inFlightCount, 2)
        plugin.didReceive(.failure(.underlying(URLError(.cancelled), nil)), target: TestTarget())
        XCTAssertEqual(plugin.inFlightCount, 1)
        plugin.didReceive(.success(Response(statusCode: 200, data: Data())), target: TestTarget())
        plugin.didReceive(.success(Response(statusCode: 200, data: Data())), target: TestTarget())
        XCTAssertEqual(plugin.inFlightCount, 0)
        XCTAssertEqual(changes.withLock { $0 }, [.began, .began, .ended, .ended, .ended])
    }

    func testNetworkActivityCountIsThreadSafe() {
        let plugin = NetworkActivityPlugin { _, _ in }
        let request = PreparedRequest(request: nil)
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            plugin.willSend(request, target: TestTarget())
        }
        XCTAssertEqual(plugin.inFlightCount, 200)
        DispatchQueue.concurrentPerform(iterations: 150) { _ in
            plugin.didReceive(.success(Response(statusCode: 200, data: Data())), target: TestTarget())
        }
        XCTAssertEqual(plugin.inFlightCount, 50)
    }
}
