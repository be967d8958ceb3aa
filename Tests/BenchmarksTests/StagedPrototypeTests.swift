@testable import Benchmarks
import Reactive
import Synchronization
import XCTest

/// The `StagedObservable` prototype behind the `*.staged-prototype` rows must deliver what the
/// `Observable` operators deliver, or its figures would compare different work.
final class StagedPrototypeTests: XCTestCase {
    func testSameSumAsTheObservablePipelineForEachSource() {
        let stages = PipelineBenchmarks.Stages.make()
        let expected = (0..<1_000).map { $0 &* 3 }.filter { $0 & 1 == 0 }.reduce(0) { $0 + ($1 &+ 1) }
        XCTAssertEqual(PipelineBenchmarks.viaObservable(Observable.range(start: 0, count: 1_000), stages), expected)
        XCTAssertEqual(PipelineBenchmarks.viaStages(Observable.range(start: 0, count: 1_000), stages), expected)
        XCTAssertEqual(PipelineBenchmarks.viaStages(Observable.from(Array(0..<1_000)), stages), expected)
        let created = StagedCreate<Int>.create { observer in
            for element in 0..<1_000 { observer.onNext(element) }
            observer.onCompleted()
            return Disposables.create()
        }
        XCTAssertEqual(PipelineBenchmarks.viaStages(created, stages), expected)
    }

    func testEventsInOrderThenCompletedOnce() {
        let log = EventLog()
        let subject = PublishSubject<Int>()
        let subscription = subject.asObservable().staged.map { $0 * 10 }.filter { $0 != 20 }
            .subscribe(onNext: { log.append("\($0)") }, onError: { _ in log.append("error") },
                       onCompleted: { log.append("completed") })
        for value in 1...3 { subject.onNext(value) }
        subject.onCompleted()
        subject.onNext(4)
        XCTAssertEqual(log.entries, ["10", "30", "completed"])
        subscription.dispose()
    }

    /// A throw ends the sequence with that error, the transform sees nothing more, and the
    /// source's subscription ends.
    func testThrowingTransformEndsWithItsErrorAndDisposesTheSource() {
        let log = EventLog()
        let transformed = Mutex(0)
        let sourceDisposed = Mutex(false)
        let source = StagedCreate<Int>.create { observer in
            for value in 1...5 { observer.onNext(value) }
            return Disposables.create { sourceDisposed.withLock { $0 = true } }
        }
        _ = source.map { value -> Int in
            transformed.withLock { $0 += 1 }
            if value == 2 { throw PrototypeError.two }
            return value
        }
        .subscribe(onNext: { log.append("\($0)") }, onError: { log.append("error \($0)") },
                   onCompleted: { log.append("completed") })
        XCTAssertEqual(log.entries, ["1", "error two"])
        XCTAssertEqual(transformed.withLock { $0 }, 2)
        XCTAssertTrue(sourceDisposed.withLock { $0 })
    }

    func testDisposeStopsDeliveryAndEndsTheSource() {
        let log = EventLog()
        let subject = PublishSubject<Int>()
        let subscription = subject.asObservable().staged.map { $0 + 1 }.subscribe(onNext: { log.append("\($0)") })
        subject.onNext(1)
        XCTAssertTrue(subject.hasObservers)
        subscription.dispose()
        subject.onNext(2)
        XCTAssertEqual(log.entries, ["2"])
        XCTAssertFalse(subject.hasObservers)
    }

    private enum PrototypeError: Error { case two }
}

/// Records events in order; the sources here are synchronous, so one thread appends.
private final class EventLog: @unchecked Sendable {
    // @unchecked: appended to from the test's thread only (synchronous sources).
    var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}
