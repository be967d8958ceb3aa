import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class SkipWhileTests: LeakCheckingTestCase {
    func testEmitsEverythingFromTheFirstFailingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 9), .next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(300)])
        let res = scheduler.start { xs.skip(while: { $0 < 3 }) }
        XCTAssertEqual(res.events, [.next(230, 5), .next(240, 1), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testPredicateIsNotAskedAfterItFailed() {
        let scheduler = TestScheduler(initialClock: 0)
        let asked = Recorder<Int>()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 5), .next(230, 1), .completed(300)])
        _ = scheduler.start { xs.skip(while: { asked.append($0); return $0 < 3 }) }
        XCTAssertEqual(asked.values, [1, 5])
    }

    func testErrorPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(4))])
        let res = scheduler.start { xs.skip(while: { $0 < 3 }) }
        XCTAssertEqual(res.events, [.error(250, TestError(4))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testThrowingPredicateFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.skip(while: { value -> Bool in
                if value == 2 { throw TestError(2) }
                return true
            })
        }
        XCTAssertEqual(res.events, [.error(220, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDisposeStopsUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 5), .next(1100, 2)])
        let res = scheduler.start { xs.skip(while: { $0 < 3 }) }
        XCTAssertEqual(res.events, [.next(210, 5)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
