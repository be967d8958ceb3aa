import FeedServer
import Foundation
import Networking
import PhotoFeed
import Reactive
import TestSupport
import XCTest

/// The store against `FeedServer` over real sockets on 127.0.0.1.
final class PhotoFeedStoreServerTests: LeakCheckingTestCase {
    private var servers: [FeedServer] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        super.tearDown()
    }

    private func startServer(_ configuration: FeedServer.Configuration = .init()) throws -> FeedServer {
        let server = try FeedServer(configuration: configuration)
        servers.append(server)
        return server
    }

    private func makeStore(baseURL: URL, timeout: Duration? = nil) -> PhotoFeedStore {
        let provider = NetworkProvider<FlickrAPI>(endpointClosure: FlickrAPI.endpointClosure(baseURL: baseURL),
                                                  scheduler: ConcurrentDispatchQueueScheduler(qos: .default),
                                                  requestTimeout: timeout)
        return PhotoFeedStore(provider: provider)
    }

    private func loadError(_ store: PhotoFeedStore) async -> (any Error)? {
        do {
            _ = try await store.load().value
            return nil
        } catch {
            return error
        }
    }

    func testEachLoadAppendsTheServersNextPage() async throws {
        let server = try startServer()
        let store = makeStore(baseURL: server.baseURL)

        let first = try await store.load(PhotoRequest(tags: "cats")).value
        let second = try await store.load(PhotoRequest(tags: "cats")).value

        XCTAssertEqual(first.items.count, 20)
        XCTAssertEqual(second.items.count, 20)
        XCTAssertTrue(Set(first.items).isDisjoint(with: second.items))
        XCTAssertEqual(sectionLinks(store.sections.value), [first.items.map(\.link), second.items.map(\.link)])
        XCTAssertEqual(server.requestCount(path: "/services/feeds/photos_public.gne"), 2)
    }

    func testConcurrentLoadsLoseNoSection() async throws {
        let server = try startServer()
        let store = makeStore(baseURL: server.baseURL)

        let pages = try await withThrowingTaskGroup(of: Photo.self) { group in
            for _ in 0..<4 { group.addTask { try await store.load().value } }
            var pages: [Photo] = []
            for try await page in group { pages.append(page) }
            return pages
        }

        XCTAssertEqual(pages.count, 4)
        XCTAssertEqual(store.sections.value.count, 4)
        XCTAssertEqual(Set(store.sections.value.flatMap(\.items).map(\.identity)).count, 80)
        XCTAssertEqual(server.requestCount, 4)
    }

    func testACaptureServedVerbatimDecodesToExactlyItsPhotos() async throws {
        let capture = try FlickrCaptures.data("02_")
        let expected = try Photo.decode(feed: capture)
        let server = try startServer(.init(feedOverride: capture))
        let store = makeStore(baseURL: server.baseURL)

        let photo = try await store.load().value

        XCTAssertEqual(photo.items.map(\.link), expected.items.map(\.link))
        var seen = Set<String>()
        let firstShowings = expected.items.map(\.link).filter { seen.insert($0).inserted }
        XCTAssertEqual(sectionLinks(store.sections.value), [firstShowings])
        XCTAssertFalse(photo.items.isEmpty)
    }

    func testA503FailsWithTheServersMessageAndLeavesTheSectionsAlone() async throws {
        let server = try startServer(.init(feedFaultRate: 1))
        let store = makeStore(baseURL: server.baseURL)

        let failure = await loadError(store)
        let error = try XCTUnwrap(failure as? APIError)

        XCTAssertEqual(error.statusCode, 503)
        XCTAssertEqual(error.errorCodes, ["E503"])
        XCTAssertEqual(error.errorDescription, "Server error (503 Service Unavailable) from http://127.0.0.1:\(server.port)/services/feeds/photos_public.gne: Injected feed fault")
        XCTAssertEqual(store.sections.value, [])
    }

    func testAHangingServerTimesOutAsRequestTimeout() async throws {
        let server = try startServer(.init(feedLatency: .seconds(30)))
        let store = makeStore(baseURL: server.baseURL, timeout: .milliseconds(300))

        let failure = await loadError(store)
        let error = try XCTUnwrap(failure as? APIError)

        guard case .requestTimeout = error else { return XCTFail("expected a timeout, got \(error)") }
        XCTAssertEqual(error.errorDescription, "The request timed out.")
        XCTAssertEqual(store.sections.value, [])
    }

    func testARefusedPortIsNoConnection() async throws {
        let server = try startServer()
        let baseURL = server.baseURL
        server.stop()
        let store = makeStore(baseURL: baseURL, timeout: .seconds(10))

        let failure = await loadError(store)
        let error = try XCTUnwrap(failure as? APIError)

        XCTAssertTrue(error.isNoNetwork, "expected no connection, got \(error)")
        XCTAssertEqual(store.sections.value, [])
    }

    func testARouteThatIsNotAFeedFailsWithTheDecodeError() async throws {
        let server = try startServer()
        let store = makeStore(baseURL: server.baseURL.appendingPathComponent("echo"))

        let error = await loadError(store)

        XCTAssertEqual((error as? APIError)?.statusCode, 404, "\(String(describing: error))")
        XCTAssertEqual(store.sections.value, [])
    }
}
