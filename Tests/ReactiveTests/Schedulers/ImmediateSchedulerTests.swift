import Foundation
import Reactive
import TestSupport
import XCTest

final class ImmediateSchedulerTests: LeakCheckingTestCase {
    func testScheduleRunsBeforeReturning() {
        let calls = Recorder<String>()
        ImmediateScheduler.instance.schedule { calls.append("action") }
        calls.append("after")
        XCTAssertEqual(calls.values, ["action", "after"])
    }

    func testZeroDueTimeRunsAtOnce() {
        let calls = Recorder<String>()
        ImmediateScheduler.instance.scheduleRelative(.zero) { calls.append("action") }
        calls.append("after")
        XCTAssertEqual(calls.values, ["action", "after"])
    }

    func testPositiveDueTimeRunsLaterAndCanBeCancelled() {
        let calls = Recorder<String>()
        // The cancelled work is due well before the kept one, so it would have run first.
        let cancelled = ImmediateScheduler.instance.scheduleRelative(.milliseconds(1)) { calls.append("cancelled") }
        ImmediateScheduler.instance.scheduleRelative(.milliseconds(100)) { calls.append("later") }
        cancelled.dispose()
        calls.append("after")
        XCTAssertTrue(waitUntil { calls.count >= 2 })
        XCTAssertEqual(calls.values, ["after", "later"])
    }

    func testObserveOnImmediateKeepsDeliverySynchronous() {
        let values = Recorder<Int>()
        Observable.of(1, 2, 3).observe(on: ImmediateScheduler.instance).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [1, 2, 3])
    }
}
