import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxTest's `Recorded.events(...)` and `XCTAssertRecordedElements`.
final class RecordedEventsTests: LeakCheckingTestCase {
    func testEventsBuildsTheArrayInOrder() {
        let variadic = Recorded.events(.next(210, 1), .next(220, 2), .completed(300))
        let array = Recorded.events([.next(210, 1), .next(220, 2), .completed(300)] as [Recorded<Event<Int>>])
        XCTAssertEqual(variadic, [.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(array, variadic)
    }

    func testEventsReadAsAnExpectedTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Recorded.events(.next(150, 1), .next(210, 2), .completed(300)))
        let res = scheduler.start { xs.map { $0 * 2 } }
        XCTAssertEqual(res.events, Recorded.events(.next(210, 4), .completed(300)))
    }

    func testRecordedElementsIgnoreTicksAndTheTerminalEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .next(25, "b"), .error(30, TestError(1))])
        let res = scheduler.start { xs }
        XCTAssertRecordedElements(res.events, ["a", "b"])
    }
}
