import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// Forwards to another scheduler and counts the actions scheduled "now".
final class CountingScheduler: SchedulerType {
    let base: any SchedulerType
    let scheduled = Recorder<Int>()

    init(_ base: any SchedulerType) { self.base = base }

    var now: Date { base.now }

    func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        scheduled.append(1)
        return base.schedule(action)
    }

    func scheduleRelative(_ dueTime: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        base.scheduleRelative(dueTime, action: action)
    }
}

final class ScheduledCreationTests: LeakCheckingTestCase {
    func testJustSendsTheElementAndTheCompletionFromTwoActions() {
        let scheduler = TestScheduler(initialClock: 0)
        let counting = CountingScheduler(scheduler)
        let res = scheduler.start { Observable.just(42, scheduler: counting) }
        XCTAssertEqual(res.events, [.next(200, 42), .completed(200)])
        XCTAssertEqual(counting.scheduled.count, 2)
    }

    func testOfAndFromSendOneEventPerAction() {
        let scheduler = TestScheduler(initialClock: 0)
        let counting = CountingScheduler(scheduler)
        let res = scheduler.start { Observable.of(1, 2, 3, scheduler: counting) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
        XCTAssertEqual(counting.scheduled.count, 4)

        let fromScheduler = TestScheduler(initialClock: 0)
        let fromRes = fromScheduler.start { Observable.from(["a", "b"], scheduler: fromScheduler) }
        XCTAssertEqual(fromRes.events, [.next(200, "a"), .next(200, "b"), .completed(200)])
    }

    func testEventsWaitForTheScheduler() {
        let queue = SerialDispatchQueueScheduler(qos: .default)
        let events = Recorder<String>()
        let threads = Recorder<Bool>()
        _ = Observable.of(1, 2, scheduler: queue).subscribe(
            onNext: { events.append("\($0)"); threads.append(Thread.isMainThread) },
            onCompleted: { events.append("completed") }
        )
        XCTAssertTrue(waitUntil { events.values == ["1", "2", "completed"] })
        XCTAssertEqual(threads.values, [false, false])
    }

    func testRangeEmptyErrorAndOptionalTakeAScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let range = scheduler.start { Observable.range(start: 5, count: 3, scheduler: scheduler) }
        XCTAssertEqual(range.events, [.next(200, 5), .next(200, 6), .next(200, 7), .completed(200)])

        let emptyScheduler = TestScheduler(initialClock: 0)
        let empty = emptyScheduler.start { Observable<Int>.empty(scheduler: emptyScheduler) }
        XCTAssertEqual(empty.events, [.completed(200)])

        let errorScheduler = TestScheduler(initialClock: 0)
        let error = errorScheduler.start { Observable<Int>.error(TestError(1), scheduler: errorScheduler) }
        XCTAssertEqual(error.events, [.error(200, TestError(1))])

        let optionalScheduler = TestScheduler(initialClock: 0)
        let some = optionalScheduler.start { Observable.from(optional: 3, scheduler: optionalScheduler) }
        XCTAssertEqual(some.events, [.next(200, 3), .completed(200)])
        let none = TestScheduler(initialClock: 0).start { Observable<Int>.from(optional: nil) }
        XCTAssertEqual(none.events, [.completed(200)])
    }

    func testDisposeBetweenActionsStopsTheLoop() {
        let scheduler = TestScheduler(initialClock: 0)
        let counting = CountingScheduler(scheduler)
        let values = Recorder<Int>()
        let subscription = SerialDisposable()
        subscription.disposable = Observable.range(start: 0, count: 100, scheduler: counting).subscribe(onNext: { value in
            values.append(value)
            if value == 2 { subscription.dispose() }
        })
        scheduler.start()
        XCTAssertEqual(values.values, [0, 1, 2])
        XCTAssertEqual(counting.scheduled.count, 3)
    }

    func testAnImmediateSchedulerLoopsWithoutGrowingTheStack() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        let count = Recorder<Int>()
        let completed = Recorder<Bool>()
        _ = Observable.range(start: 0, count: 100_000, scheduler: ImmediateScheduler.instance)
            .reduce(0) { total, _ in total + 1 }
            .subscribe(onNext: { count.append($0) }, onCompleted: { completed.append(true) })
        XCTAssertEqual(count.values, [100_000])
        XCTAssertEqual(completed.values, [true])
    }

    func testTheCurrentThreadSchedulerRunsBeforeSubscribeReturns() {
        let values = Recorder<Int>()
        _ = Observable.of(1, 2, 3, scheduler: CurrentThreadScheduler.instance).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [1, 2, 3])
    }
}
