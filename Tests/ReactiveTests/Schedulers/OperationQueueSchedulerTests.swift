import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class OperationQueueSchedulerTests: LeakCheckingTestCase {
    func testScheduleRunsAsAnOperationOnTheQueueWithThePriority() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
        let ranOnQueue = expectation(description: "ran")
        scheduler.schedule {
            if OperationQueue.current === queue { ranOnQueue.fulfill() }
        }
        XCTAssertEqual(queue.operations.first?.queuePriority, .high)
        queue.isSuspended = false
        wait(for: [ranOnQueue], timeout: 5)
    }

    func testDisposingBeforeTheOperationStartsCancelsIt() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let ran = Recorder<String>()
        let first = scheduler.schedule { ran.append("first") }
        scheduler.schedule { ran.append("second") }
        first.dispose()
        let done = expectation(description: "drained")
        queue.addOperation { done.fulfill() }
        queue.isSuspended = false
        wait(for: [done], timeout: 5)
        XCTAssertEqual(ran.values, ["second"])
    }

    func testMaxConcurrentOperationCountOfOneRunsInOrder() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let done = expectation(description: "done")
        let result = Recorder<Int>()
        Observable.of(1, 2, 3, 4).observe(on: scheduler)
            .subscribe(onNext: { result.append($0) }, onCompleted: { done.fulfill() })
        wait(for: [done], timeout: 5)
        XCTAssertEqual(result.values, [1, 2, 3, 4])
    }

    func testScheduleRelativeAddsTheOperationWhenDue() {
        let queue = OperationQueue()
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let start = Date()
        let ran = expectation(description: "ran")
        let elapsed = Recorder<TimeInterval>()
        scheduler.scheduleRelative(.milliseconds(50)) {
            elapsed.append(Date().timeIntervalSince(start))
            if OperationQueue.current === queue { ran.fulfill() }
        }
        wait(for: [ran], timeout: 5)
        XCTAssertGreaterThanOrEqual(elapsed.values.first ?? 0, 0.05)
    }

    func testATimerOnTheSchedulerEmits() {
        let scheduler = OperationQueueScheduler(operationQueue: OperationQueue())
        let done = expectation(description: "done")
        let ticks = Recorder<Int>()
        Observable<Int>.interval(.milliseconds(5), scheduler: scheduler).take(3)
            .subscribe(onNext: { ticks.append($0) }, onCompleted: { done.fulfill() })
        wait(for: [done], timeout: 5)
        XCTAssertEqual(ticks.values, [0, 1, 2])
    }
}
