@testable import MigrationLegacy
import FeedServer
import Networking
import Reactive
import ReactiveTesting
import XCTest

final class AccountViewModelTests: XCTestCase {
    func testAStubbedProfileShowsItsName() {
        let viewModel = AccountViewModel(provider: APIProvider<Accounts>(stubbed: true))
        viewModel.load(id: 7)
        XCTAssertEqual(viewModel.name.value, "Ann")
    }

    func testTheWrappersOfTheCompletionAPI() async throws {
        let provider = APIProvider<Accounts>(stubbed: true)
        let profile = try await provider.profile(id: 3).value
        XCTAssertEqual(profile.id, 3)
        let progress = try await provider.avatarProgress(id: 3).toArray().value
        XCTAssertEqual(progress, [1.0], "a stub reports once, complete")
    }

    func testResultKeepsValueAndError() {
        let success: Result<Int, ProviderError> = .success(1)
        let failure: Result<Int, ProviderError> = .failure(.requestMapping("x"))
        XCTAssertEqual(success.value, 1)
        XCTAssertNil(success.error)
        XCTAssertNil(failure.value)
        XCTAssertNotNil(failure.error)
    }

    func testAServerErrorFromFeedServerIsShown() throws {
        let server = try FeedServer()
        defer { server.stop() }
        for (route, message) in [("status/503", "The server answered 503."), ("drop", "No answer.")] {
            let provider = APIProvider<Accounts>(stubbed: false, endpointClosure: NetworkProvider.answering(from: route, of: server.baseURL))
            let viewModel = AccountViewModel(provider: provider)
            let failures = TestScheduler(initialClock: 0).createObserver(String.self)
            let subscription = viewModel.failure.subscribe(failures)
            viewModel.load(id: 7)
            XCTAssertTrue(waitFor { failures.events.count == 1 }, route)
            XCTAssertEqual(failures.events.map(\.value), [.next(message)], route)
            subscription.dispose()
        }
    }

    func testAvatarProgressFromFeedServer() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let provider = APIProvider<Accounts>(stubbed: false, endpointClosure: NetworkProvider.answering(from: "bytes/300000", of: server.baseURL))
        let values = TestScheduler(initialClock: 0).createObserver(Double.self)
        let subscription = provider.avatarProgress(id: 1).subscribe(values)
        XCTAssertTrue(waitFor { values.events.contains { $0.value.element == nil } }, "ended")
        subscription.dispose()
        guard case .completed? = values.events.last?.value else { return XCTFail("\(values.events)") }
        let fractions = values.events.compactMap(\.value.element)
        XCTAssertEqual(fractions.last, 1)
        XCTAssertEqual(fractions, fractions.sorted())
    }
}

/// Waits up to five seconds for `condition`, polling.
func waitFor(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(5)
    while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    return condition()
}
