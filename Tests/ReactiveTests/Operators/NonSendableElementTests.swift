import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// Operators whose timers carry no element take element types that are not `Sendable`.
final class NonSendableElementTests: LeakCheckingTestCase {
    /// Deliberately not `Sendable`.
    final class Box {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    func testTakeForAndSkipForAcceptANonSendableElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Box>()
        let taken = Recorder<Int>()
        let skipped = Recorder<Int>()
        let a = subject.take(for: .seconds(10), scheduler: scheduler).map(\.value)
            .subscribe(onNext: { taken.append($0) }, onCompleted: { taken.append(-1) })
        let b = subject.skip(for: .seconds(10), scheduler: scheduler).map(\.value)
            .subscribe(onNext: { skipped.append($0) })
        subject.onNext(Box(1))
        scheduler.advanceTo(10)
        subject.onNext(Box(2))
        XCTAssertEqual(taken.values, [1, -1])
        XCTAssertEqual(skipped.values, [2])
        a.dispose()
        b.dispose()
    }

    func testEmptyAndErrorOnASchedulerAcceptANonSendableElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.start { Observable<Box>.empty(scheduler: scheduler).map(\.value) }
        XCTAssertEqual(empty.events, [.completed(200)])
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable<Box>.error(TestError(1), scheduler: scheduler).map(\.value)
        }
        XCTAssertEqual(failed.events, [.error(1200, TestError(1))])
    }
}
