import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class SkipTests: LeakCheckingTestCase {
    func testSkipDropsTheFirstElementsCountedFromSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.skip(2) }
        XCTAssertEqual(res.events, [.next(230, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSkipPassesAnUpstreamErrorThroughWhileStillSkipping() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1)), .next(230, 2)])
        let res = scheduler.start { xs.skip(3) }
        XCTAssertEqual(res.events, [.error(220, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testSkipAfterAThrowingMapSeesTheErrorAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 3 { throw TestError(3) }
                return value
            }.skip(1)
        }
        XCTAssertEqual(res.events, [.next(220, 2), .error(230, TestError(3))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testSkipDisposedAtThousandStopsUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(1010, 3)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.skip(1) }
        XCTAssertEqual(res.events, [.next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
