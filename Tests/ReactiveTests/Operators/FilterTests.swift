import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class FilterTests: LeakCheckingTestCase {
    func testFilterKeepsMatchingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 2), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let res = scheduler.start { xs.filter { $0.isMultiple(of: 2) } }
        XCTAssertEqual(res.events, [.next(220, 2), .next(240, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFilterThrowingPredicateErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(230, 4), .completed(300)])
        let res = scheduler.start {
            xs.filter { value in
                if value == 3 { throw TestError(3) }
                return true
            }
        }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, TestError(3))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testFilterPassesAnUpstreamErrorThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(1))])
        let res = scheduler.start { xs.filter { _ in false } }
        XCTAssertEqual(res.events, [.error(230, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testFilterDisposedAtThousandStopsUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(1010, 4)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.filter { _ in true } }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
