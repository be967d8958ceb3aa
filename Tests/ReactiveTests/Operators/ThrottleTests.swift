import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift 6 semantics: the first element goes out at once; with `latest: true` the newest
/// element seen during the window goes out when the window ends, and a completion that finds
/// such an element waiting is delivered right after it.
final class ThrottleTests: LeakCheckingTestCase {
    func testThrottleWithLatestEmitsTheNewestElementAtTheEndOfTheWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(215, 2), .next(218, 3), .next(250, 4), .completed(300),
        ])
        let res = scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 3), .next(250, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testThrottleWithoutLatestDropsElementsInsideTheWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(215, 2), .next(218, 3), .next(220, 4), .next(225, 5), .completed(300),
        ])
        let res = scheduler.start { xs.throttle(.seconds(10), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 4), .completed(300)])
    }

    func testAnElementArrivingAsTheWindowEndsGoesOutAtOnceAndReplacesTheWaitingOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 3), .completed(300)])
    }

    func testLongWindowWithLatestAndCompletionWhileAnElementWaits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5),
            .next(410, 6), .next(450, 7), .completed(500),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testLongWindowWithoutLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5),
            .next(410, 6), .next(450, 7), .completed(500),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testCompletionWaitsForTheWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(217)])
        let res = scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(220)])
    }

    func testAnErrorGoesOutAtOnceAndDropsTheWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .error(217, TestError(1))])
        let res = scheduler.start { xs.throttle(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(217, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 217)])
    }

    func testThrottleOfAThrowingMapErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw TestError(2) }
                return value
            }
            .throttle(.seconds(5), scheduler: scheduler)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testThrottleDisposedAtThousandDropsTheWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(990, 1), .next(995, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.throttle(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(990, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
