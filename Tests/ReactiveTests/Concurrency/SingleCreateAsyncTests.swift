import Reactive
import TestSupport
import XCTest

/// RxSwift's `Single.create(detached:priority:work:)`.
final class SingleCreateAsyncTests: LeakCheckingTestCase {
    func testSucceedsWithTheWorksResult() async throws {
        let value = try await Single.create { () async throws -> Int in
            await Task.yield()
            return 42
        }.value
        XCTAssertEqual(value, 42)
    }

    func testFailsWithTheWorksError() async {
        do {
            _ = try await Single<Int>.create(detached: true, priority: .utility) { throw TestError(5) }.value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? TestError, TestError(5))
        }
    }

    func testDisposingCancelsTheTask() {
        let cancelled = expectation(description: "cancelled")
        let started = expectation(description: "started")
        let subscription = Single<Int>.create { () async throws -> Int in
            started.fulfill()
            do {
                try await Task.sleep(for: .seconds(60))
            } catch is CancellationError {
                cancelled.fulfill()
            }
            return 0
        }.subscribe(onSuccess: { _ in XCTFail("a disposed single delivers nothing") })
        wait(for: [started], timeout: 5)
        subscription.dispose()
        wait(for: [cancelled], timeout: 5)
    }
}
