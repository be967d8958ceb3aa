import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// An action that records `label` with the tick it ran at.
private func log(_ calls: Recorder<String>, _ scheduler: VirtualTimeScheduler, _ label: String) -> @Sendable () -> Void {
    { calls.append("\(label)@\(scheduler.clock)") }
}

final class VirtualTimeSchedulerTests: LeakCheckingTestCase {
    func testWorkAtOneTickRunsInTheOrderItWasScheduled() {
        let scheduler = VirtualTimeScheduler(initialClock: 0)
        let calls = Recorder<String>()
        scheduler.scheduleAbsolute(10, action: log(calls, scheduler, "a"))
        scheduler.scheduleAbsolute(5, action: log(calls, scheduler, "early"))
        scheduler.scheduleAbsolute(10, action: log(calls, scheduler, "b"))
        scheduler.scheduleRelative(.seconds(10), action: log(calls, scheduler, "c"))
        scheduler.scheduleAbsolute(10, action: log(calls, scheduler, "d"))
        scheduler.start()
        XCTAssertEqual(calls.values, ["early@5", "a@10", "b@10", "c@10", "d@10"])
    }

    func testManyItemsAtOneTickKeepFIFOOrder() {
        let scheduler = VirtualTimeScheduler(initialClock: 0)
        let order = Recorder<Int>()
        for index in 0..<1_000 { scheduler.scheduleAbsolute(7) { order.append(index) } }
        scheduler.start()
        XCTAssertEqual(order.values, Array(0..<1_000))
    }

    func testScheduleForNowRunsAtTheCurrentTickWithoutDelay() {
        let scheduler = VirtualTimeScheduler(initialClock: 0)
        let calls = Recorder<String>()
        scheduler.scheduleAbsolute(50) {
            scheduler.schedule(log(calls, scheduler, "now"))
            scheduler.scheduleRelative(.zero, action: log(calls, scheduler, "zero"))
            scheduler.scheduleAbsolute(50, action: log(calls, scheduler, "same tick"))
            scheduler.scheduleAbsolute(51, action: log(calls, scheduler, "next tick"))
        }
        scheduler.start()
        XCTAssertEqual(calls.values, ["now@50", "zero@50", "same tick@50", "next tick@51"])
    }

    func testPastTicksRunAtTheCurrentTick() {
        let scheduler = VirtualTimeScheduler(initialClock: 100)
        let calls = Recorder<String>()
        scheduler.scheduleAbsolute(10, action: log(calls, scheduler, "past"))
        scheduler.scheduleAbsolute(100, action: log(calls, scheduler, "now"))
        scheduler.scheduleAbsolute(120) {
            scheduler.scheduleAbsolute(110, action: log(calls, scheduler, "past inside"))
        }
        scheduler.start()
        XCTAssertEqual(calls.values, ["past@100", "now@100", "past inside@120"])
        XCTAssertEqual(scheduler.clock, 120, "the clock never runs backwards")
    }

    func testTicksForRoundsUpWithTheResolution() {
        let seconds = VirtualTimeScheduler(initialClock: 0)
        XCTAssertEqual(seconds.ticks(for: .seconds(10)), 10)
        XCTAssertEqual(seconds.ticks(for: .milliseconds(1_500)), 2)
        XCTAssertEqual(seconds.ticks(for: .milliseconds(1)), 1)
        XCTAssertEqual(seconds.ticks(for: .zero), 0)
        XCTAssertEqual(seconds.ticks(for: .seconds(-3)), 0)
        let tenths = VirtualTimeScheduler(initialClock: 0, resolution: .milliseconds(100))
        XCTAssertEqual(tenths.resolution, .milliseconds(100))
        XCTAssertEqual(tenths.ticks(for: .seconds(1)), 10)
        XCTAssertEqual(tenths.ticks(for: .milliseconds(250)), 3)
        XCTAssertEqual(tenths.ticks(for: .milliseconds(300)), 3)
        XCTAssertEqual(tenths.ticks(for: .nanoseconds(1)), 1)
    }

    func testRelativeScheduleUsesTheResolution() {
        let scheduler = VirtualTimeScheduler(initialClock: 0, resolution: .milliseconds(10))
        let calls = Recorder<String>()
        scheduler.scheduleRelative(.milliseconds(250), action: log(calls, scheduler, "a"))
        scheduler.start()
        XCTAssertEqual(calls.values, ["a@25"])
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 0.25))
    }

    func testAdvanceToRunsOnlyDueWorkAndMovesTheClock() {
        let scheduler = VirtualTimeScheduler(initialClock: 0)
        let calls = Recorder<String>()
        scheduler.scheduleAbsolute(10, action: log(calls, scheduler, "a"))
        scheduler.scheduleAbsolute(20, action: log(calls, scheduler, "b"))
        scheduler.scheduleAbsolute(30, action: log(calls, scheduler, "c"))
        scheduler.advanceTo(20)
        XCTAssertEqual(calls.values, ["a@10", "b@20"])
        XCTAssertEqual(scheduler.clock, 20)
        scheduler.advanceTo(25)
        XCTAssertEqual(scheduler.clock, 25)
        XCTAssertEqual(calls.count, 2)
        scheduler.advanceBy(5)
        XCTAssertEqual(calls.values, ["a@10", "b@20", "c@30"])
        scheduler.advanceTo(5)
        XCTAssertEqual(scheduler.clock, 30, "advancing to the past leaves the clock alone")
    }

    func testStopEndsStartAfterTheCurrentItemAndStartResumes() {
        let scheduler = VirtualTimeScheduler(initialClock: 0)
        let calls = Recorder<String>()
        scheduler.scheduleAbsolute(10) {
            calls.append("stop@\(scheduler.clock)")
            XCTAssertTrue(scheduler.isRunning)
            scheduler.stop()
        }
        scheduler.scheduleAbsolute(10, action: log(calls, scheduler, "same tick"))
        scheduler.scheduleAbsolute(20, action: log(calls, scheduler, "later"))
        scheduler.start()
        XCTAssertFalse(scheduler.isRunning)
        XCTAssertEqual(calls.values, ["stop@10"])
        XCTAssertEqual(scheduler.clock, 10)
        scheduler.start()
        XCTAssertEqual(calls.values, ["stop@10", "same tick@10", "later@20"])
    }

    func testDisposedWorkDoesNotRun() {
        let scheduler = VirtualTimeScheduler(initialClock: 0)
        let calls = Recorder<String>()
        let cancelled = scheduler.scheduleAbsolute(10, action: log(calls, scheduler, "cancelled"))
        scheduler.scheduleAbsolute(20, action: log(calls, scheduler, "kept"))
        cancelled.dispose()
        scheduler.start()
        XCTAssertEqual(calls.values, ["kept@20"])
    }

    func testClockEndsAtTheLastWorkThatRan() {
        let scheduler = VirtualTimeScheduler(initialClock: 0)
        let calls = Recorder<String>()
        scheduler.scheduleAbsolute(10, action: log(calls, scheduler, "ran"))
        let timer = scheduler.scheduleAbsolute(500, action: log(calls, scheduler, "cancelled timer"))
        timer.dispose()
        scheduler.start()
        XCTAssertEqual(calls.values, ["ran@10"])
        XCTAssertEqual(scheduler.clock, 10, "a cancelled item must not move the clock")
    }

    func testPeriodicWorkRepeatsUntilDisposed() {
        let scheduler = VirtualTimeScheduler(initialClock: 0)
        let ticks = Recorder<Int>()
        let periodic = scheduler.schedulePeriodic(startAfter: .seconds(5), period: .seconds(10)) { ticks.append(scheduler.clock) }
        scheduler.scheduleAbsolute(40) { periodic.dispose() }
        scheduler.start()
        XCTAssertEqual(ticks.values, [5, 15, 25, 35])
    }

    /// A zero period lasts one tick; the action stops the run itself, so a regression fails
    /// the assertion instead of hanging.
    func testZeroPeriodAdvancesOneTickPerPeriod() {
        let scheduler = VirtualTimeScheduler(initialClock: 0)
        let ticks = Recorder<Int>()
        let periodic = SingleAssignmentDisposable()
        periodic.setDisposable(scheduler.schedulePeriodic(startAfter: .zero, period: .zero) {
            ticks.append(scheduler.clock)
            if ticks.count == 4 { periodic.dispose() }
        })
        scheduler.start()
        XCTAssertEqual(ticks.values, [0, 1, 2, 3])
        XCTAssertEqual(scheduler.clock, 3)
    }

    func testNowFollowsTheClock() {
        let scheduler = VirtualTimeScheduler(initialClock: 3)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 3))
        scheduler.advanceTo(60)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 60))
    }
}
