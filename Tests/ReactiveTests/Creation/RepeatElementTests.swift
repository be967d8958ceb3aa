import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class RepeatElementTests: LeakCheckingTestCase {
    func testRepeatsUntilTake() {
        let values = Recorder<String>()
        let completed = Recorder<Bool>()
        _ = Observable.repeatElement("ping").take(3)
            .subscribe(onNext: { values.append($0) }, onCompleted: { completed.append(true) })
        XCTAssertEqual(values.values, ["ping", "ping", "ping"])
        XCTAssertEqual(completed.values, [true])
    }

    func testOnAVirtualSchedulerEachElementIsItsOwnAction() {
        let scheduler = TestScheduler(initialClock: 0)
        let counting = CountingScheduler(scheduler)
        let res = scheduler.start { Observable.repeatElement(7, scheduler: counting).take(4) }
        XCTAssertEqual(res.events, [.next(200, 7), .next(200, 7), .next(200, 7), .next(200, 7), .completed(200)])
        XCTAssertEqual(counting.scheduled.count, 4)
    }

    func testDisposeStopsIt() {
        let queue = SerialDispatchQueueScheduler(qos: .default)
        let values = Recorder<Int>()
        let subscription = Observable.repeatElement(1, scheduler: queue).subscribe(onNext: { values.append($0) })
        XCTAssertTrue(waitUntil { values.count > 10 })
        subscription.dispose()
        // A step already past its check may still emit once: draining the serial queue lets it.
        queue.queue.sync {}
        let settled = values.count
        // Each step schedules the next on the same queue, so a live loop would emit before
        // each of these blocks runs.
        for _ in 0..<3 { queue.queue.sync {} }
        XCTAssertEqual(values.count, settled)
    }
}
