import Foundation
import Reactive
import TestSupport
import XCTest

final class FromAsyncSequenceTests: LeakCheckingTestCase {
    func testEmitsTheElementsThenCompletes() {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let events = Recorder<String>()
        let subscription = Observable.from(stream).subscribe(onNext: { events.append("\($0)") },
                                                             onCompleted: { events.append("completed") })
        XCTAssertTrue(waitUntil { events.count == 4 })
        subscription.dispose()
        XCTAssertEqual(events.values, ["1", "2", "3", "completed"])
    }

    func testThrowingSequenceFails() {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError(8))
        }
        let events = Recorder<String>()
        let subscription = Observable.from(stream).subscribe(onNext: { events.append("\($0)") },
                                                             onError: { events.append("error \(($0 as? TestError)?.code ?? -1)") })
        XCTAssertTrue(waitUntil { events.count == 2 })
        subscription.dispose()
        XCTAssertEqual(events.values, ["1", "error 8"])
    }

    func testDisposingCancelsTheIteration() {
        let terminated = Recorder<String>()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { termination in
            if case .cancelled = termination { terminated.append("cancelled") } else { terminated.append("finished") }
        }
        let values = Recorder<Int>()
        let subscription = Observable.from(stream).subscribe(onNext: { values.append($0) })
        continuation.yield(1)
        XCTAssertTrue(waitUntil { values.count == 1 })
        subscription.dispose()
        XCTAssertTrue(waitUntil { terminated.count == 1 })
        continuation.yield(2)
        XCTAssertEqual(terminated.values, ["cancelled"])
        XCTAssertEqual(values.values, [1])
    }
}
