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

/// `MainScheduler.ensureRunningOnMainThread`, and RxSwift's `BinderTests` case that calls it.
extension MainSchedulerTests {
    func testEnsureRunningOnMainThreadIsSilentOnTheMainThread() {
        let log = DebugLogCapture()
        defer { log.restore() }
        XCTAssertTrue(Thread.isMainThread)
        MainScheduler.ensureRunningOnMainThread()
        XCTAssertEqual(log.lines.values, [])
    }

    func testEnsureRunningOnMainThreadReportsABackgroundThread() {
        let log = DebugLogCapture()
        defer { log.restore() }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            MainScheduler.ensureRunningOnMainThread()
            MainScheduler.ensureRunningOnMainThread(errorMessage: "render() off the main thread")
            done.signal()
        }
        done.wait()
        XCTAssertEqual(log.lines.values, ["Running on background thread.", "render() off the main thread"])
    }

    func testBindingOnNonMainQueueDispatchesToMainQueue() {
        final class Target: Sendable {}
        let log = DebugLogCapture()
        defer { log.restore() }
        let waitForElement = expectation(description: "wait until element arrives")
        let target = Target()
        let bindingObserver = Binder(target) { (_, _: Int) in
            MainScheduler.ensureRunningOnMainThread()
            waitForElement.fulfill()
        }
        DispatchQueue.global(qos: .default).async {
            bindingObserver.on(.next(1))
        }
        wait(for: [waitForElement], timeout: 5)
        XCTAssertEqual(log.lines.values, [])
    }
}
