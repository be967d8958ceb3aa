import Foundation
import Reactive
import TestSupport
import XCTest

final class MainSchedulerTests: LeakCheckingTestCase {
    func testWorkScheduledFromTheMainThreadRunsWhenTheRunLoopSpins() {
        XCTAssertTrue(Thread.isMainThread)
        let calls = Recorder<String>()
        MainScheduler.instance.schedule { calls.append("scheduled") }
        calls.append("after schedule")
        XCTAssertTrue(waitUntil { calls.count == 2 })
        XCTAssertEqual(calls.values, ["after schedule", "scheduled"])
    }

    func testObserveOnMainDeliversOnTheMainThreadInOrder() {
        let values = Recorder<Int>()
        let onMain = Recorder<Bool>()
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: MainScheduler.instance).subscribe(onNext: { value in
            onMain.append(Thread.isMainThread)
            values.append(value)
        })
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 0..<100 { subject.onNext(value) }
            sent.signal()
        }
        sent.wait()
        XCTAssertTrue(waitUntil { values.count == 100 })
        subscription.dispose()
        XCTAssertEqual(values.values, Array(0..<100))
        XCTAssertEqual(Set(onMain.values), [true])
    }

    func testRelativeWorkRunsOnMainAfterItsDueTime() {
        let onMain = Recorder<Bool>()
        let scheduled = Date()
        let elapsed = Recorder<TimeInterval>()
        MainScheduler.instance.scheduleRelative(.milliseconds(20)) {
            onMain.append(Thread.isMainThread)
            elapsed.append(Date().timeIntervalSince(scheduled))
        }
        XCTAssertTrue(waitUntil { onMain.count == 1 })
        XCTAssertEqual(onMain.values, [true])
        XCTAssertGreaterThanOrEqual(elapsed.values.first ?? 0, 0.015, "must not run before it is due")
    }
}
