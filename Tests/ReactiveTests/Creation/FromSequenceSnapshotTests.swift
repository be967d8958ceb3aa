import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// `Observable.from(_:scheduler:)` with a sequence that is not `Sendable`.
final class FromSequenceSnapshotTests: LeakCheckingTestCase {
    func testANonSendableSequenceEmitsOneElementPerAction() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let counting = sequence(first: 1) { $0 < 3 ? $0 + 1 : nil }
        let observable = Observable.from(counting, scheduler: scheduler)
        let res = scheduler.start { observable }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
        let again = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { observable }
        XCTAssertEqual(again.events.count, 4, "each subscription replays the elements")
    }
}
