import Foundation
import Reactive
import TestSupport
import XCTest

final class SingleValueTests: LeakCheckingTestCase {
    func testValueReturnsTheSuccess() async throws {
        let value = try await Single.just(5).value
        XCTAssertEqual(value, 5)
    }

    func testValueThrowsTheFailure() async {
        do {
            _ = try await Single<Int>.error(TestError(1)).value
            XCTFail("expected a failure")
        } catch {
            XCTAssertEqual(error as? TestError, TestError(1))
        }
    }

    func testValueWaitsForAnAnswerFromAnotherThread() async throws {
        let single = Single<String>.create { observer in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { observer(.success("late")) }
            return Disposables.create()
        }
        let value = try await single.value
        XCTAssertEqual(value, "late")
    }

    func testValueOfAnEmptySequenceThrowsNoElements() async {
        do {
            _ = try await Observable<Int>.empty().asSingle().value
            XCTFail("expected a failure")
        } catch {
            XCTAssertEqual(error as? ReactiveError, .noElements)
        }
    }

    func testCancellingTheAwaitingTaskThrowsCancellationErrorAndDisposes() async throws {
        let start = Resources.total
        let disposed = Recorder<Int>()
        let subscribed = Recorder<Int>()
        let never = Single<Int>.create { _ in
            subscribed.append(1)
            return Disposables.create { disposed.append(1) }
        }
        let task = Task { try await never.value }
        for _ in 0..<5_000 where subscribed.count == 0 { try await Task.sleep(for: .milliseconds(1)) }
        XCTAssertEqual(subscribed.count, 1)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "got \(error)")
        }
        XCTAssertEqual(disposed.count, 1)
        XCTAssertEqual(Resources.total, start, "the subscription must be released")
    }

    func testCancellingWhileAwaitingSingleNeverDoesNotLeak() async {
        let start = Resources.total
        let task = Task { try await Single<Int>.never().value }
        try? await Task.sleep(for: .milliseconds(5))
        task.cancel()
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError) }
        XCTAssertEqual(Resources.total, start)
    }

    func testAwaitingInAnAlreadyCancelledTaskThrowsWithoutSubscribing() async {
        let subscribed = Recorder<Int>()
        let never = Single<Int>.create { _ in
            subscribed.append(1)
            return Disposables.create()
        }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await never.value
        }
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError) }
        XCTAssertEqual(subscribed.count, 0)
    }

    func testManyConcurrentAwaitsAllResume() async throws {
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await Single<Int>.create { observer in
                        DispatchQueue.global().async { observer(.success(index)) }
                        return Disposables.create()
                    }.value
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(total, (0..<200).reduce(0, +))
    }

    /// The result is there at subscription, so cancellation does not hide it.
    func testMaybeAndCompletableReturnAResultAlreadyThereInACancelledTask() async throws {
        let task = Task { () -> (Int?, Int?) in
            withUnsafeCurrentTask { $0?.cancel() }
            let present = try await Maybe.just(3).value
            let absent = try await Maybe<Int>.empty().value
            try await Completable.empty().value
            return (present, absent)
        }
        let (present, absent) = try await task.value
        XCTAssertEqual(present, 3)
        XCTAssertNil(absent)
    }

    func testMaybeAndCompletableWithoutAResultThrowCancellationInACancelledTask() async {
        let maybe = Task { () -> Int? in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Maybe<Int>.never().value
        }
        let maybeResult = await maybe.result
        XCTAssertThrowsError(try maybeResult.get()) { XCTAssertTrue($0 is CancellationError, "got \($0)") }
        let completable = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await Completable.never().value
        }
        let completableResult = await completable.result
        XCTAssertThrowsError(try completableResult.get()) { XCTAssertTrue($0 is CancellationError, "got \($0)") }
    }

    func testMaybeAndCompletableValues() async throws {
        let present = try await Maybe.just(3).value
        let absent = try await Maybe<Int>.empty().value
        XCTAssertEqual(present, 3)
        XCTAssertNil(absent)
        try await Completable.empty().value
        do {
            try await Completable.error(TestError(9)).value
            XCTFail("expected a failure")
        } catch {
            XCTAssertEqual(error as? TestError, TestError(9))
        }
    }
}
