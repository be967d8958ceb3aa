import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class StartWithTests: LeakCheckingTestCase {
    func testStartWithEmitsThePrefixAtSubscriptionThenTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.startWith(1, 2) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(220, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testStartWithPassesAnUpstreamErrorThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 3), .error(230, TestError(1))])
        let res = scheduler.start { xs.startWith(1) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(220, 3), .error(230, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testStartWithBeforeAThrowingMapErrorsAtSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 3), .completed(300)])
        let res = scheduler.start {
            xs.startWith(1).map { value -> Int in
                if value == 1 { throw TestError(1) }
                return value
            }
        }
        XCTAssertEqual(res.events, [.error(200, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testStartWithDisposedAtThousandStopsUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(1010, 3)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.startWith(1) }
        XCTAssertEqual(res.events, [.next(200, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
