import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
