import Foundation
import Reactive
import TestSupport
import XCTest

final class ObservableValuesTests: LeakCheckingTestCase {
    /// Polls `condition` while yielding, for at most about five seconds.
    private func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
        for _ in 0..<5_000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }

    func testLoopEndsAtCompletion() async throws {
        var seen: [Int] = []
        for try await value in Observable.of(1, 2, 3).values { seen.append(value) }
        XCTAssertEqual(seen, [1, 2, 3])
    }

    func testLoopThrowsTheError() async {
        var seen: [Int] = []
        let failing = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onError(TestError(4))
            return Disposables.create()
        }
        do {
            for try await value in failing.values { seen.append(value) }
            XCTFail("expected the error")
        } catch {
            XCTAssertEqual(error as? TestError, TestError(4))
        }
        XCTAssertEqual(seen, [1, 2])
    }

    func testElementsFromAnotherThreadArriveInOrder() async throws {
        let source = Observable<Int>.create { observer in
            DispatchQueue.global().async {
                for value in 0..<500 { observer.onNext(value) }
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var seen: [Int] = []
        for try await value in source.values { seen.append(value) }
        XCTAssertEqual(seen, Array(0..<500))
    }

    func testBreakingEarlyDisposesTheSubscription() async throws {
        let subject = PublishSubject<Int>()
        let disposed = Recorder<Int>()
        let source = subject.asObservable().do(onDispose: { disposed.append(1) })
        let task = Task {
            var seen: [Int] = []
            for try await value in source.values {
                seen.append(value)
                if seen.count == 2 { break }
            }
            return seen
        }
        let subscribed = await eventually { subject.hasObservers }
        XCTAssertTrue(subscribed)
        for value in 1...5 { subject.onNext(value) }
        let seen = try await task.value
        XCTAssertEqual(seen, [1, 2])
        let released = await eventually { !subject.hasObservers }
        XCTAssertTrue(released, "leaving the loop must dispose the subscription")
        XCTAssertEqual(disposed.count, 1)
    }

    func testCancellingTheIteratingTaskDisposesTheSubscription() async {
        let subject = PublishSubject<Int>()
        let task = Task {
            var count = 0
            for try await _ in subject.values { count += 1 }
            return count
        }
        let subscribed = await eventually { subject.hasObservers }
        XCTAssertTrue(subscribed)
        task.cancel()
        _ = await task.result
        let released = await eventually { !subject.hasObservers }
        XCTAssertTrue(released)
    }

    func testIteratingInACancelledTaskThrowsCancellationError() async {
        let subject = PublishSubject<Int>()
        let task = Task { () -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            var count = 0
            for try await _ in subject.values { count += 1 }
            return count
        }
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError, "got \($0)") }
        let released = await eventually { !subject.hasObservers }
        XCTAssertTrue(released)
    }

    func testCancellingWhileWaitingThrowsCancellationError() async {
        let subject = PublishSubject<Int>()
        let task = Task { () -> Int in
            var count = 0
            for try await _ in subject.values { count += 1 }
            return count
        }
        let subscribed = await eventually { subject.hasObservers }
        XCTAssertTrue(subscribed)
        subject.onNext(1)
        task.cancel()
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError, "got \($0)") }
        let released = await eventually { !subject.hasObservers }
        XCTAssertTrue(released)
    }

    func testDroppingTheStreamWithoutIteratingUnsubscribes() {
        let subject = PublishSubject<Int>()
        do {
            let stream = subject.values
            XCTAssertTrue(subject.hasObservers)
            _ = stream
        }
        XCTAssertTrue(waitUntil(timeout: 20) { !subject.hasObservers })
    }
}
