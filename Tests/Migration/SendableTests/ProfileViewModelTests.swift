@testable import MigrationSendable
import Networking
import Reactive
import ReactiveTesting
import XCTest

final class ProfileViewModelTests: XCTestCase {
    func testLoadingShowsTheNameAndTheRepos() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = NetworkProvider<GitHub>(stubClosure: NetworkProvider.immediatelyStub, scheduler: scheduler)
        let viewModel = ProfileViewModel(provider: provider, scheduler: scheduler)
        let loading = scheduler.createObserver(Bool.self)
        _ = viewModel.isLoading.subscribe(loading)

        scheduler.scheduleAt(100) { viewModel.load(user: "octocat") }
        scheduler.start()

        XCTAssertEqual(viewModel.title.value, "The Octocat")
        XCTAssertEqual(viewModel.repos.value.map(\.name), ["Hello-World"])
        XCTAssertEqual(loading.events, [.next(0, false), .next(100, true), .next(100, false)])
    }

    func testAFailureIsShown() {
        let scheduler = TestScheduler(initialClock: 0)
        let provider = NetworkProvider<GitHub>(
            endpointClosure: { target in
                Endpoint(url: URL(target: target).absoluteString,
                         sampleResponseClosure: { .networkResponse(500, Data()) },
                         method: target.method, task: target.task, httpHeaderFields: target.headers)
            },
            stubClosure: NetworkProvider.immediatelyStub,
            scheduler: scheduler)
        let viewModel = ProfileViewModel(provider: provider, scheduler: scheduler)
        let errors = scheduler.createObserver(String.self)
        _ = viewModel.error.subscribe(errors)

        scheduler.scheduleAt(100) { viewModel.load(user: "octocat") }
        scheduler.start()

        XCTAssertEqual(errors.events.map(\.time), [100])
        XCTAssertFalse(viewModel.isLoading.value)
    }
}
