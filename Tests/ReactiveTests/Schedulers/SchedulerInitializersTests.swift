import Foundation
import Reactive
import TestSupport
import XCTest

/// RxSwift's scheduler initializers.
final class SchedulerInitializersTests: LeakCheckingTestCase {
    func testInternalSerialQueueNameLabelsANewSerialQueue() {
        let configured = Recorder<String>()
        let scheduler = SerialDispatchQueueScheduler(
            internalSerialQueueName: "rx.test.serial", serialQueueConfiguration: { configured.append($0.label) }
        )
        XCTAssertEqual(scheduler.queue.label, "rx.test.serial")
        XCTAssertEqual(configured.values, ["rx.test.serial"])
        XCTAssertEqual(SerialDispatchQueueScheduler(qos: .utility, internalSerialQueueName: "rx.qos").queue.label, "rx.qos")
    }

    func testAQueueTargetingAConcurrentOneRunsWorkInOrder() {
        let scheduler = SerialDispatchQueueScheduler(queue: .global(), internalSerialQueueName: "rx.targeted")
        XCTAssertEqual(scheduler.queue.label, "rx.targeted")
        let done = expectation(description: "done")
        let order = Recorder<Int>()
        for index in 0..<50 { scheduler.schedule { order.append(index) } }
        scheduler.schedule { done.fulfill() }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(order.values, Array(0..<50))
    }

    func testSerialQueueAndAsyncInstance() {
        let queue = DispatchQueue(label: "rx.given")
        XCTAssertTrue(SerialDispatchQueueScheduler(serialQueue: queue).queue === queue)
        XCTAssertEqual(MainScheduler.asyncInstance.queue.label, DispatchQueue.main.label)
    }
}
