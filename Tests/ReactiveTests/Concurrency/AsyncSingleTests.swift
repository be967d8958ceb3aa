import Foundation
import Reactive
import TestSupport
import XCTest

/// `Single { try await ... }`: async work as a single, cancelled on dispose.
final class AsyncSingleTests: LeakCheckingTestCase {
    func testSucceedsWithTheWorksResult() async throws {
        let single = Single<Int> {
            try await Task.sleep(for: .milliseconds(1))
            return 42
        }
        let value = try await single.value
        XCTAssertEqual(value, 42)
    }

    func testFailsWithTheWorksError() {
        let failures = Recorder<TestError?>()
        let single = Single<Int> { throw TestError(3) }
        let subscription = single.subscribe(onFailure: { failures.append($0 as? TestError) })
        XCTAssertTrue(waitUntil { failures.count == 1 })
        subscription.dispose()
        XCTAssertEqual(failures.values, [TestError(3)])
    }

    func testRunsTheWorkOncePerSubscription() async throws {
        let runs = Recorder<Int>()
        let single = Single<Int> {
            runs.append(1)
            return runs.count
        }
        _ = try await single.value
        _ = try await single.value
        XCTAssertEqual(runs.count, 2)
    }

    func testDisposingCancelsTheTask() {
        let log = Recorder<String>()
        let single = Single<Int> {
            log.append("started")
            return try await withTaskCancellationHandler {
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    log.append("sleep threw")
                }
                do {
                    try Task.checkCancellation()
                } catch {
                    log.append("checkCancellation threw")
                    throw error
                }
                return 1
            } onCancel: {
                log.append("cancelled")
            }
        }
        let answers = Recorder<String>()
        let subscription = single.subscribe(onSuccess: { _ in answers.append("success") },
                                            onFailure: { _ in answers.append("failure") })
        XCTAssertTrue(waitUntil { log.values.contains("started") })
        subscription.dispose()
        XCTAssertTrue(waitUntil { log.values.contains("checkCancellation threw") })
        XCTAssertEqual(log.values, ["started", "cancelled", "sleep threw", "checkCancellation threw"])
        XCTAssertEqual(answers.count, 0, "a disposed single delivers nothing")
    }
}
