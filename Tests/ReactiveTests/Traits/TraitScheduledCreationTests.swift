import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class TraitScheduledCreationTests: LeakCheckingTestCase {
    func testJustOnASchedulerAnswersWhenTheSchedulerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let values = Recorder<Int>()
        let single = Single.just(1, scheduler: scheduler).subscribe(onSuccess: { values.append($0) })
        let maybe = Maybe.just(2, scheduler: scheduler).subscribe(onSuccess: { values.append($0) })
        XCTAssertEqual(values.values, [], "nothing before the scheduler runs")
        scheduler.start()
        XCTAssertEqual(values.values, [1, 2])
        single.dispose()
        maybe.dispose()
        let cancelled = Single.just(3, scheduler: scheduler).subscribe(onSuccess: { values.append($0) })
        cancelled.dispose()
        scheduler.start()
        XCTAssertEqual(values.values, [1, 2], "disposed before the scheduler ran")
    }

    func testTimerAnswersZeroAfterTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(
            scheduler.start { Single<Int>.timer(.seconds(30), scheduler: scheduler) }.events,
            [.next(230, 0), .completed(230)]
        )
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                Maybe<Int>.timer(.seconds(30), scheduler: scheduler).map { _ -> Int in throw TestError(1) }
            }.events,
            [.error(1230, TestError(1))]
        )
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 2229) {
                Single<Int>.timer(.seconds(30), scheduler: scheduler)
            }.events,
            []
        )
    }
}
