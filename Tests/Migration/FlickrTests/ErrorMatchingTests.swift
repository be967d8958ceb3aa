@testable import MigrationFlickr
import FeedServer
import Networking
import Reactive
import Synchronization
import XCTest

/// What a Moya codebase matched in `AFError` and what MIGRATING says to match instead, checked on
/// a real socket: a port where nothing listens (a server that stopped).
final class ErrorMatchingTests: XCTestCase {
    private func refusedBaseURL() throws -> URL {
        let server = try FeedServer()
        let url = server.baseURL
        server.stop()
        return url
    }

    private func onRefusedPort(_ provider: (@escaping NetworkProvider<Flickr>.EndpointClosure) -> FlickrProvider) throws -> FlickrProvider {
        let base = try refusedBaseURL()
        return provider { target in
            Endpoint(url: base.appendingPathComponent("feed").absoluteString, sampleResponseClosure: { .networkResponse(200, Data()) },
                     method: target.method, task: target.task, httpHeaderFields: target.headers)
        }
    }

    func testNoServerIsShownAsOffline() throws {
        let provider = try onRefusedPort { FlickrProvider(endpointClosure: $0, plugins: []) }
        let viewModel = FeedViewModel(provider: provider)
        let failed = expectation(description: "the load fails")
        let failures = Mutex<[FeedError]>([])
        _ = viewModel.failure.subscribe(onNext: { failure in
            failures.withLock { $0.append(failure) }
            failed.fulfill()
        })
        viewModel.load(tags: "cats")
        wait(for: [failed], timeout: 10)
        XCTAssertEqual(failures.withLock { $0 }, [.offline])
    }

    func testTheErrorUnderAProviderErrorIsFoundWithoutAFError() throws {
        let provider = try onRefusedPort { FlickrProvider(endpointClosure: $0, plugins: []) }
        let answered = expectation(description: "the request fails")
        let received = Mutex<ProviderError?>(nil)
        provider.request(.publicPhotos(tags: "cats")) { result in
            if case .failure(let error) = result { received.withLock { $0 = error } }
            answered.fulfill()
        }
        wait(for: [answered], timeout: 10)
        let error: Error = try XCTUnwrap(received.withLock { $0 })
        XCTAssertTrue(error.isNotConnection, "\(error)")
        XCTAssertFalse(error.isTimeout)
        XCTAssertEqual(error.urlError?.code, .cannotConnectToHost)
        guard case .underlying(let underlying, nil)? = error as? ProviderError else { return XCTFail("\(error)") }
        XCTAssertTrue(underlying.isNotConnection)
    }
}
