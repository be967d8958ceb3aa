import Foundation
import Reactive
import TestSupport
import XCTest

/// `SerialDispatchQueueScheduler` and `ConcurrentDispatchQueueScheduler` as plain schedulers.
final class DispatchQueueSchedulerTests: LeakCheckingTestCase {
    private func blockedQueue(_ label: String) -> (DispatchQueue, DispatchSemaphore) {
        let queue = DispatchQueue(label: label)
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        return (queue, gate)
    }

    func testSerialScheduleRunsInOrderOnItsQueue() {
        let queue = DispatchQueue(label: "serial-order")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let scheduler = SerialDispatchQueueScheduler(queue: queue)
        let order = Recorder<Int>()
        let onQueue = Recorder<Bool>()
        for index in 0..<100 {
            scheduler.schedule {
                onQueue.append(DispatchQueue.getSpecific(key: key) == 1)
                order.append(index)
            }
        }
        queue.sync {}
        XCTAssertEqual(order.values, Array(0..<100))
        XCTAssertEqual(Set(onQueue.values), [true])
    }

    func testDisposingScheduledWorkBeforeItRunsSkipsIt() {
        for makeScheduler in [{ (queue: DispatchQueue) -> any SchedulerType in SerialDispatchQueueScheduler(queue: queue) },
                              { (queue: DispatchQueue) -> any SchedulerType in ConcurrentDispatchQueueScheduler(queue: queue) }] {
            let (queue, gate) = blockedQueue("skip")
            let scheduler = makeScheduler(queue)
            let calls = Recorder<String>()
            let skipped = scheduler.schedule { calls.append("skipped") }
            scheduler.schedule { calls.append("kept") }
            skipped.dispose()
            gate.signal()
            queue.sync {}
            XCTAssertEqual(calls.values, ["kept"])
        }
    }

    func testRelativeWorkCanBeCancelled() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let calls = Recorder<String>()
        // The cancelled work is due well before the kept one, so it would have run first.
        let cancelled = scheduler.scheduleRelative(.milliseconds(1)) { calls.append("cancelled") }
        scheduler.scheduleRelative(.milliseconds(100)) { calls.append("kept") }
        cancelled.dispose()
        XCTAssertTrue(waitUntil { calls.count >= 1 })
        XCTAssertEqual(calls.values, ["kept"])
    }

    func testPeriodicWorkRepeatsUntilDisposed() {
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let ticks = Recorder<Int>()
        let periodic = scheduler.schedulePeriodic(startAfter: .milliseconds(1), period: .milliseconds(2)) { ticks.append(1) }
        XCTAssertTrue(waitUntil { ticks.count >= 3 })
        periodic.dispose()
        scheduler.queue.sync {}
        let atDispose = ticks.count
        // A tick every 2 ms would run on the serial queue before work due 50 ms later.
        let marker = DispatchSemaphore(value: 0)
        _ = scheduler.scheduleRelative(.milliseconds(50)) { marker.signal() }
        XCTAssertEqual(marker.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(ticks.count, atDispose, "no tick after dispose() returned and the queue drained")
    }

    func testQoSInitializersPickTheirQueues() {
        let serial = SerialDispatchQueueScheduler(qos: .utility, label: "named-serial")
        XCTAssertEqual(serial.queue.label, "named-serial")
        let concurrent = ConcurrentDispatchQueueScheduler(qos: .utility)
        let ran = Recorder<Int>()
        concurrent.schedule { ran.append(1) }
        XCTAssertTrue(waitUntil { ran.count == 1 })
    }
}
