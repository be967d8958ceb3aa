import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class DistinctUntilChangedTests: LeakCheckingTestCase {
    func testDropsElementsEqualToThePreviousOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 1), .next(230, 2), .next(240, 2), .next(250, 1), .completed(300),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(250, 1), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testKeySelectorComparesKeys() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "A"), .next(230, "b"), .completed(300)])
        let res = scheduler.start { xs.distinctUntilChanged { $0.lowercased() } }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(230, "b"), .completed(300)])
    }

    func testThrowingComparerErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.distinctUntilChanged { (_: Int, _: Int) -> Bool in throw TestError(9) }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(9))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testPassesAnUpstreamErrorThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .error(230, TestError(1))])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDisposedAtThousandStopsUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(1010, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
