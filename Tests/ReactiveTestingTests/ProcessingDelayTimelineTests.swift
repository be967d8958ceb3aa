import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// `TestScheduler(initialClock:simulateProcessingDelay: true)` against RxTest's timelines for the
/// cases where a drain or a timer per event once differed (`delay`, `observe(on:)`, `interval` with a
/// zero period), and the default mode's timelines for the same code (unchanged).
final class ProcessingDelayTimelineTests: LeakCheckingTestCase {
    // MARK: delay: one timer per step, RxSwift's drain

    func testDelayOfASingleLandsNextAndCompletedOnSuccessiveTicks() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let res = scheduler.start { Single.just(1).delay(.seconds(2), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(202, 1), .completed(203)], "RxTest: next@202, completed@203")
    }

    func testDelayKeepsEachEventsOwnDueTickWhenLater() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start { xs.delay(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(215, 1), .next(216, 2), .next(235, 3), .completed(245)])
    }

    func testDelayInTheDefaultModeLandsBothOnOneTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(1).delay(.seconds(2), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(202, 1), .completed(202)])
    }

    // MARK: observe(on:): one event per scheduled action

    func testObserveOnDeliversOneEventPerTick() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let res = scheduler.start { Observable.just(1).observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .completed(202)], "RxTest: completed@202")
    }

    func testObserveOnQueuedElementsTakeATickEach() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let res = scheduler.start { Observable.of(1, 2, 3).observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
    }

    func testObserveOnInTheDefaultModeDeliversTheQueueAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .completed(200)])
    }

    // MARK: schedulePeriodic(startAfter: 0): the same +1 as scheduleRelative(0)

    func testIntervalWithAZeroPeriodFirstTicksOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let res = scheduler.start { Observable<Int>.interval(.zero, scheduler: scheduler).take(3) }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .next(203, 2), .completed(203)], "RxTest: first tick at 201")
    }

    func testSchedulePeriodicStartingNowRunsOneTickLaterThenEveryPeriod() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let ticks = Recorder<Int>()
        let timer = scheduler.schedulePeriodic(startAfter: .zero, period: .seconds(5)) { ticks.append(scheduler.clock) }
        scheduler.scheduleAt(20) { timer.dispose() }
        scheduler.start()
        XCTAssertEqual(ticks.values, [1, 6, 11, 16])
    }

    func testSchedulePeriodicStartingNowInTheDefaultModeRunsAtTheCurrentTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let ticks = Recorder<Int>()
        let timer = scheduler.schedulePeriodic(startAfter: .zero, period: .seconds(5)) { ticks.append(scheduler.clock) }
        scheduler.scheduleAt(12) { timer.dispose() }
        scheduler.start()
        XCTAssertEqual(ticks.values, [0, 5, 10])
    }

    // MARK: what RxTest delays: relative work only

    /// RxTest's `adjustScheduledTime` applies to `scheduleRelative` (and so to `schedule`), not
    /// to `scheduleAbsoluteVirtual`, which `scheduleAt` calls: work at an absolute tick at or
    /// before the clock runs at the current tick, and only the relative work takes the +1.
    func testAnAbsoluteScheduleForTheCurrentTickRunsAtTheCurrentTick() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let ran = Recorder<String>()
        scheduler.scheduleAt(10) {
            scheduler.scheduleAt(10) { ran.append("at 10 ran at \(scheduler.clock)") }
            scheduler.scheduleAt(3) { ran.append("at 3 ran at \(scheduler.clock)") }
            scheduler.schedule { ran.append("now ran at \(scheduler.clock)") }
        }
        scheduler.start()
        XCTAssertEqual(ran.values, ["at 10 ran at 10", "at 3 ran at 10", "now ran at 11"])
    }

    /// A cold observable's events are absolute ticks from the subscription (RxTest's
    /// `scheduleRelativeVirtual` is `scheduleAbsoluteVirtual(clock + offset)`): one at offset 0
    /// arrives at the subscription's own tick, while what `observe(on:)` schedules takes the +1.
    func testAColdObservablesEventAtOffsetZeroArrivesAtTheSubscriptionTick() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let xs = scheduler.createColdObservable([.next(0, 1), .next(5, 2), .completed(5)])
        let direct = scheduler.start { xs.asObservable() }
        XCTAssertEqual(direct.events, [.next(200, 1), .next(205, 2), .completed(205)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 205)])
        let observed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { xs.observe(on: scheduler) }
        XCTAssertEqual(observed.events, [.next(1201, 1), .next(1206, 2), .completed(1207)])
    }
}
