import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class DelayTests: LeakCheckingTestCase {
    func testDelayShiftsElementsAndCompletionAndReleasesTheSourceAtItsCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .completed(70)])
        let res = scheduler.start { xs.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(280, 42), .next(290, 43), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 270)])
    }

    func testDelayKeepsOrderForElementsAtTheSameTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(215, 3), .completed(220)])
        let res = scheduler.start { xs.delay(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(215, 1), .next(215, 2), .next(220, 3), .completed(225)])
    }

    func testDelayForwardsAnErrorAtOnceAndDropsPendingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .error(235, TestError(1))])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 1), .error(235, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testDelayOfAThrowingMapErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(212, 2), .completed(300)])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw TestError(2) }
                return value
            }
            .delay(.seconds(10), scheduler: scheduler)
        }
        XCTAssertEqual(res.events, [.error(212, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 212)])
    }

    func testDelayDisposedAtThousandDropsPendingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(990, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.delay(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
