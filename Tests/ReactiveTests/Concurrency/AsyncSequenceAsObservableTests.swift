import Reactive
import TestSupport
import XCTest

/// RxSwift's `AsyncSequence.asObservable(detached:priority:)`.
final class AsyncSequenceAsObservableTests: LeakCheckingTestCase {
    func testEmitsTheElementsThenCompletes() {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let done = expectation(description: "completed")
        let seen = Recorder<Int>()
        let subscription = stream.asObservable(detached: true, priority: .utility)
            .subscribe(onNext: { seen.append($0) }, onCompleted: { done.fulfill() })
        wait(for: [done], timeout: 5)
        XCTAssertEqual(seen.values, [1, 2, 3])
        subscription.dispose()
    }

    func testAThrowingSequenceFails() {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError(9))
        }
        let failed = expectation(description: "failed")
        let seen = Recorder<String>()
        let subscription = stream.asObservable().subscribe(
            onNext: { seen.append("\($0)") }, onError: { seen.append("\($0)"); failed.fulfill() }
        )
        wait(for: [failed], timeout: 5)
        XCTAssertEqual(seen.values, ["1", "\(TestError(9))"])
        subscription.dispose()
    }

    func testDisposingStopsTheIteration() {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = expectation(description: "iteration cancelled")
        continuation.onTermination = { _ in terminated.fulfill() }
        let subscription = stream.asObservable().subscribe(onNext: { _ in })
        subscription.dispose()
        wait(for: [terminated], timeout: 5)
    }
}
