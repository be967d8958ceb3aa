import Foundation
import Reactive
import TestSupport
import XCTest

/// RxSwift's `HistoricalSchedulerTest` cases.
final class HistoricalSchedulerTests: LeakCheckingTestCase {
    private func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    func testInitialClock() {
        let scheduler = HistoricalScheduler(initialClock: date(10))
        XCTAssertEqual(scheduler.now, date(10))
        XCTAssertEqual(scheduler.clock, date(10))
    }

    func testStartRunsNestedWorkAtItsTimes() {
        let scheduler = HistoricalScheduler()
        let times = Recorder<Date>()
        scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
            times.append(scheduler.now)
            scheduler.scheduleRelative(.seconds(20)) { times.append(scheduler.now) }
            return scheduler.schedule(()) { _ in
                times.append(scheduler.now)
                return Disposables.create()
            }
        }
        scheduler.start()
        XCTAssertEqual(times.values, [date(10), date(10), date(30)])
    }

    func testDisposedWorkDoesNotRun() {
        let scheduler = HistoricalScheduler()
        let times = Recorder<Date>()
        scheduler.scheduleRelative(.seconds(10)) {
            times.append(scheduler.now)
            let inner = scheduler.scheduleRelative(.seconds(20)) { times.append(scheduler.now) }
            inner.dispose()
        }
        scheduler.start()
        XCTAssertEqual(times.values, [date(10)])
    }

    func testAdvanceToRunsOnlyWhatIsDueAndSetsTheClock() {
        let scheduler = HistoricalScheduler()
        let times = Recorder<Date>()
        scheduler.scheduleRelative(.seconds(10)) { times.append(scheduler.now) }
        scheduler.scheduleRelative(.seconds(20)) { times.append(scheduler.now) }
        scheduler.advanceTo(date(15))
        XCTAssertEqual(times.values, [date(10)])
        XCTAssertEqual(scheduler.clock, date(15))
        scheduler.advanceTo(date(25))
        XCTAssertEqual(times.values, [date(10), date(20)])
    }

    func testStopEndsStartAfterTheCurrentItem() {
        let scheduler = HistoricalScheduler()
        let times = Recorder<Date>()
        scheduler.scheduleRelative(.seconds(10)) {
            times.append(scheduler.now)
            scheduler.stop()
        }
        scheduler.scheduleRelative(.seconds(20)) { times.append(scheduler.now) }
        scheduler.start()
        XCTAssertEqual(times.values, [date(10)])
        XCTAssertFalse(scheduler.isRunning)
    }

    func testSleepMovesTheClockWithoutRunningWork() {
        let scheduler = HistoricalScheduler()
        let times = Recorder<Date>()
        scheduler.scheduleRelative(.seconds(10)) { times.append(scheduler.now) }
        scheduler.sleep(30)
        XCTAssertEqual(scheduler.clock, date(30))
        XCTAssertEqual(times.values, [])
        scheduler.start()
        XCTAssertEqual(times.values, [date(30)], "overdue work runs late, at the current time")
    }

    func testAnIntervalOnRecordedTimestamps() {
        let scheduler = HistoricalScheduler(initialClock: date(1_000))
        let times = Recorder<TimeInterval>()
        let subscription = Observable<Int>.interval(.milliseconds(1500), scheduler: scheduler).take(2)
            .subscribe(onNext: { _ in times.append(scheduler.now.timeIntervalSince1970) })
        scheduler.start()
        XCTAssertEqual(times.values, [1_001.5, 1_003])
        subscription.dispose()
    }
}
