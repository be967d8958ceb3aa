@testable import MigrationLegacy
import FeedServer
import Networking
import Reactive
import XCTest

/// The app's own Flickr target, hard-coded base URL and all, sent to `FeedServer` by an endpoint
/// closure, with the server's latency and fault settings.
final class FeedServerTests: XCTestCase {
    func testTheAppsTargetReachesTheServer() async throws {
        let server = try FeedServer(configuration: .init(itemsPerPage: 5))
        defer { server.stop() }
        let provider = NetworkProvider<Photos>(endpointClosure: NetworkProvider.rebasing(onto: server.baseURL))
        let response = try await provider.rx.request(.recent(tags: "cats")).filterSuccessfulStatusCodes().value
        let feed = try response.mapJSON() as? [String: Any]
        XCTAssertEqual((feed?["items"] as? [Any])?.count, 5)
        XCTAssertEqual(response.request?.url?.path, "/services/feeds/photos_public.gne")
        XCTAssertEqual(server.requestCount(path: "/services/feeds/photos_public.gne"), 1)
    }

    func testLatencyMeetsTheRequestTimeout() async throws {
        let server = try FeedServer(configuration: .init(feedLatency: .milliseconds(800)))
        defer { server.stop() }
        let provider = NetworkProvider<Photos>(endpointClosure: NetworkProvider.rebasing(onto: server.baseURL),
                                               scheduler: ConcurrentDispatchQueueScheduler(qos: .default),
                                               requestTimeout: .milliseconds(100))
        do {
            _ = try await provider.rx.request(.recent(tags: "cats")).value
            XCTFail("the server waits 800 ms")
        } catch {
            XCTAssertTrue(error.isTimeout, "\(error)")
        }
    }

    func testEveryFeedRequestFailsAtAFaultRateOfOne() async throws {
        let server = try FeedServer(configuration: .init(feedFaultRate: 1))
        defer { server.stop() }
        let provider = NetworkProvider<Photos>(endpointClosure: NetworkProvider.rebasing(onto: server.baseURL))
        do {
            _ = try await provider.rx.request(.recent(tags: "cats")).filterSuccessfulStatusCodes().value
            XCTFail("a fault rate of 1 fails every feed request")
        } catch ProviderError.statusCode(let response) {
            XCTAssertEqual(response.statusCode, 503)
        }
    }
}
