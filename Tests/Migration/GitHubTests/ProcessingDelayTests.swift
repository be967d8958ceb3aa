@testable import MigrationGitHub
import Networking
import Reactive
import ReactiveTesting
import XCTest

/// Step 4's claim: with RxTest's +1 tick back (`simulateProcessingDelay: true`), the stub's answer
/// and `observe(on:)` each take a tick, so the last `isLoading` event lands at 102 (RxTest's 101
/// plus the stub's own scheduled answer).
final class ProcessingDelayTests: XCTestCase {
    func testWithRxTestsTickTheLoadEndsAt102() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let provider = NetworkProvider<GitHub>(stubClosure: NetworkProvider.immediatelyStub, scheduler: scheduler)
        let viewModel = ProfileViewModel(provider: provider, scheduler: scheduler)
        let loading = scheduler.createObserver(Bool.self)
        _ = viewModel.isLoading.subscribe(loading)

        scheduler.scheduleAt(100) { viewModel.load(user: "octocat") }
        scheduler.start()

        XCTAssertEqual(loading.events, [.next(0, false), .next(100, true), .next(102, false)])
    }
}
