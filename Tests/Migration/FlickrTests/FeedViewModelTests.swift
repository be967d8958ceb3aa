@testable import MigrationFlickr
import Networking
import Reactive
import ReactiveTesting
import Synchronization
import XCTest

final class FeedViewModelTests: XCTestCase {
    func testLoadingShowsTheTitles() {
        let viewModel = FeedViewModel(provider: FlickrProvider(stubClosure: NetworkProvider.immediatelyStub, plugins: []))
        viewModel.load(tags: "cats")
        XCTAssertEqual(viewModel.titles.value, ["Rock 'n' roll", "Sunset"])
        XCTAssertFalse(viewModel.loading.value)
    }

    func testEveryRequestCarriesTheKey() {
        let sent = SentRequests()
        let viewModel = FeedViewModel(provider: FlickrProvider(stubClosure: NetworkProvider.immediatelyStub, plugins: [sent]))
        viewModel.load(tags: "cats")
        XCTAssertEqual(sent.requests.withLock { $0.map { $0.value(forHTTPHeaderField: "X-Api-Key") } }, ["demo-key"])
    }

    func testAServerErrorIsShown() {
        let provider = FlickrProvider(stubClosure: NetworkProvider.immediatelyStub, endpointClosure: { target in
            Endpoint(url: URL(target: target).absoluteString, sampleResponseClosure: { .networkResponse(503, Data()) },
                     method: target.method, task: target.task, httpHeaderFields: target.headers)
        }, plugins: [])
        let viewModel = FeedViewModel(provider: provider)
        let failures = TestScheduler(initialClock: 0).createObserver(FeedError.self)
        _ = viewModel.failure.subscribe(failures)
        viewModel.load(tags: "cats")
        XCTAssertEqual(failures.events.map(\.value), [.next(.server(status: 503))])
    }

    func testASlowAnswerTimesOutAfterTenSeconds() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = FlickrProvider(stubClosure: NetworkProvider.delayedStub(30), plugins: [], scheduler: scheduler)
        let viewModel = FeedViewModel(provider: provider)
        let failures = scheduler.createObserver(FeedError.self)
        _ = viewModel.failure.subscribe(failures)
        let loading = scheduler.createObserver(Bool.self)
        _ = viewModel.rx.isLoading.subscribe(loading)

        scheduler.scheduleAt(100) { viewModel.load(tags: "cats") }
        scheduler.start()

        XCTAssertEqual(failures.events, [.next(110, .timeout)])
        XCTAssertEqual(loading.events, [.next(0, false), .next(100, true), .next(110, false)])
    }
}

/// Records the requests the provider sends.
final class SentRequests: PluginType {
    let requests = Mutex<[URLRequest]>([])

    func willSend(_ request: RequestType, target: TargetType) {
        if let request = request.request {
            requests.withLock { $0.append(request) }
        }
    }
}
