import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class TimerTests: LeakCheckingTestCase {
    func testIntervalOnTestSchedulerTicksEveryPeriodUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3),
                                    .next(700, 4), .next(800, 5), .next(900, 6)])
    }

    func testIntervalStartingAtDisposalTickIsCutOff() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 400) { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(300, 0)], "disposal at 400 was scheduled before the tick at 400")
    }

    func testTimerOnTestSchedulerEmitsZeroThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 0), .completed(230)])
    }

    func testTimerWithPeriodStartsAtDueTimeThenRepeats() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 300) {
            Observable<Int>.timer(.seconds(5), period: .seconds(40), scheduler: scheduler)
        }
        XCTAssertEqual(res.events, [.next(205, 0), .next(245, 1), .next(285, 2)])
    }

    func testDurationsRoundUpToTicksOfTheResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: .milliseconds(100))
        let res = scheduler.start(disposed: 210) { Observable<Int>.interval(.milliseconds(250), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(203, 0), .next(206, 1), .next(209, 2)])
    }

    func testIntervalOnSerialDispatchSchedulerCountsUp() {
        let values = Recorder<Int>()
        let done = Recorder<Bool>()
        let subscription = Observable<Int>.interval(.milliseconds(2), scheduler: SerialDispatchQueueScheduler(qos: .default))
            .take(5)
            .subscribe(onNext: { values.append($0) }, onCompleted: { done.append(true) })
        XCTAssertTrue(waitUntil { done.count == 1 })
        subscription.dispose()
        XCTAssertEqual(values.values, [0, 1, 2, 3, 4])
    }

    func testTimerOnConcurrentDispatchSchedulerEmitsOnceThenCompletes() {
        let events = Recorder<String>()
        let subscription = Observable<Int>.timer(.milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
            .subscribe(onNext: { events.append("next \($0)") }, onCompleted: { events.append("completed") })
        XCTAssertTrue(waitUntil { events.count == 2 })
        subscription.dispose()
        XCTAssertEqual(events.values, ["next 0", "completed"])
    }

    func testDisposingADispatchIntervalStopsIt() {
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let values = Recorder<Int>()
        let subscription = Observable<Int>.interval(.milliseconds(1), scheduler: scheduler)
            .subscribe(onNext: { values.append($0) })
        XCTAssertTrue(waitUntil { values.count >= 3 })
        subscription.dispose()
        scheduler.queue.sync {}
        let countAtDispose = values.count
        // A tick every millisecond would run on the serial queue before work due 50 ms later.
        let marker = DispatchSemaphore(value: 0)
        _ = scheduler.scheduleRelative(.milliseconds(50)) { marker.signal() }
        XCTAssertEqual(marker.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(values.count, countAtDispose, "no tick after dispose() returned and the queue drained")
        XCTAssertEqual(values.values, Array(0..<values.count))
    }
}
