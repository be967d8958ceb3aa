import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// Ties: like RxSwift's `TimeoutSink`, the timer is scheduled before the source is subscribed.
/// A hot observable scheduled its events when it was created, so at a tie the element runs
/// first and restarts the timer; a cold observable schedules its events at subscription,
/// after the timer, so at a tie the timer wins.
final class TimeoutTests: LeakCheckingTestCase {
    func testTimeoutRestartsOnEveryElementAndFailsWhenTheGapIsTooLong() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 42), .next(220, 43), .next(300, 44)])
        let res = scheduler.start { xs.timeout(.seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 42), .next(220, 43), .error(245, ReactiveError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
    }

    func testTimeoutFiresFromSubscriptionWhenNothingArrives() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(300, 1)])
        let res = scheduler.start { xs.timeout(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(210, ReactiveError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testCompletionInTimeCancelsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .completed(212)])
        let res = scheduler.start { xs.timeout(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(205, 1), .completed(212)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 212)])
    }

    func testTieWithAHotElementTheElementWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.timeout(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(230, ReactiveError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTieWithAColdElementTheTimerWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(15)])
        let res = scheduler.start { xs.timeout(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(210, ReactiveError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testAColdElementScheduledBeforeTheRestartedTimerWinsTheTie() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(45, 3), .completed(50)])
        let res = scheduler.start { xs.timeout(.seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(245, 3), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testUpstreamErrorPassesThroughBeforeTheTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .error(212, TestError(1))])
        let res = scheduler.start { xs.timeout(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(205, 1), .error(212, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 212)])
    }

    func testThrowingMapUpstreamErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .next(208, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw TestError(2) }
                return value
            }
            .timeout(.seconds(10), scheduler: scheduler)
        }
        XCTAssertEqual(res.events, [.next(205, 1), .error(208, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 208)])
    }

    func testDisposedAtThousandDisposesTheSourceAndTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.timeout(.seconds(2000), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testTimeoutWithOtherSwitchesAtTheTimerTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(260)])
        let other = scheduler.createColdObservable([.next(5, 100), .completed(10)])
        let res = scheduler.start { xs.timeout(.seconds(20), other: other, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(235, 100), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(other.subscriptions, [Subscription(230, 240)])
    }

    func testTimeoutWithOtherTieWithAHotElementTheElementWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 1), .completed(225)])
        let other = scheduler.createColdObservable([.next(5, 100), .completed(10)])
        let res = scheduler.start { xs.timeout(.seconds(20), other: other, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(225)])
        XCTAssertEqual(other.subscriptions, [])
    }

    func testTimeoutWithOtherNeverSwitchesWhenTheSourceEndsInTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(215, TestError(1))])
        let other = scheduler.createColdObservable([.next(5, 100), .completed(10)])
        let res = scheduler.start { xs.timeout(.seconds(20), other: other, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(215, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
        XCTAssertEqual(other.subscriptions, [])
    }

    func testAnErrorFromOtherPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(300, 1)] as [Recorded<Event<Int>>])
        let other = scheduler.createColdObservable([.error(5, TestError(7))] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.timeout(.seconds(20), other: other, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(225, TestError(7))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(other.subscriptions, [Subscription(220, 225)])
    }

    func testDisposedAtThousandDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(300, 1)] as [Recorded<Event<Int>>])
        let other = scheduler.createColdObservable([.next(5, 100)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.timeout(.seconds(20), other: other, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(225, 100)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(other.subscriptions, [Subscription(220, 1000)])
    }
}
