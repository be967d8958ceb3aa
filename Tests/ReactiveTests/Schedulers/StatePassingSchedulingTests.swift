import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's `schedule(_:action:)`, `scheduleRelative(_:dueTime:action:)` and
/// `schedulePeriodic(_:startAfter:period:action:)` on any scheduler.
final class StatePassingSchedulingTests: LeakCheckingTestCase {
    func testScheduleHandsTheStateAndDisposingDisposesWhatTheActionReturned() {
        let scheduler = TestScheduler(initialClock: 0)
        let seen = Recorder<String>()
        let subscription = scheduler.schedule("state") { state in
            seen.append("ran \(state) at \(scheduler.clock)")
            return Disposables.create { seen.append("inner disposed") }
        }
        scheduler.start()
        XCTAssertEqual(seen.values, ["ran state at 0"])
        subscription.dispose()
        XCTAssertEqual(seen.values, ["ran state at 0", "inner disposed"])
    }

    func testDisposingBeforeItRunsCancelsTheAction() {
        let scheduler = TestScheduler(initialClock: 0)
        let seen = Recorder<Int>()
        let subscription = scheduler.scheduleRelative(7, dueTime: .seconds(10)) { state in
            seen.append(state)
            return Disposables.create()
        }
        scheduler.scheduleAt(5) { subscription.dispose() }
        scheduler.start()
        XCTAssertEqual(seen.values, [])
        XCTAssertEqual(scheduler.clock, 5)
    }

    func testScheduleRelativeRunsAtTheDueTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let seen = Recorder<String>()
        scheduler.scheduleRelative(3, dueTime: .seconds(10)) { state in
            seen.append("\(state)@\(scheduler.clock)")
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(seen.values, ["3@10"])
    }

    func testSchedulePeriodicThreadsTheStateThroughEachRun() {
        let scheduler = TestScheduler(initialClock: 0)
        let seen = Recorder<String>()
        let timer = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(5)) { count in
            seen.append("\(count)@\(scheduler.clock)")
            return count + 1
        }
        scheduler.scheduleAt(22) { timer.dispose() }
        scheduler.start()
        XCTAssertEqual(seen.values, ["0@10", "1@15", "2@20"])
    }

    func testTheFormsWorkOnADispatchScheduler() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "state-passing")
        let done = expectation(description: "ran")
        scheduler.schedule(42) { state in
            if state == 42 { done.fulfill() }
            return Disposables.create()
        }
        wait(for: [done], timeout: 5)
    }
}
