import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class CompletableAndThenTests: LeakCheckingTestCase {
    private typealias Events = [Recorded<Event<Never>>]

    func testAndThenMaybeContinuesAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.completed(290)] as Events)
        let success = scheduler.createColdObservable([.next(20, 1), .completed(20)])
        let empty = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Int>>])
        let res = scheduler.start { first.asCompletable().andThen(success.asMaybe()) }
        XCTAssertEqual(res.events, [.next(310, 1), .completed(310)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 290)])
        XCTAssertEqual(success.subscriptions, [Subscription(290, 310)])
        let second = scheduler.createHotObservable([.completed(1290)] as Events)
        let none = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            second.asCompletable().andThen(empty.asMaybe())
        }
        XCTAssertEqual(none.events, [.completed(1310)])
    }

    func testAndThenObservableEmitsTheSecondsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.completed(290)] as Events)
        let second = scheduler.createColdObservable([.next(10, "a"), .next(20, "b"), .completed(30)])
        let res = scheduler.start { first.asCompletable().andThen(second.asObservable()) }
        XCTAssertEqual(res.events, [.next(300, "a"), .next(310, "b"), .completed(320)])
        XCTAssertEqual(second.subscriptions, [Subscription(290, 320)])
    }

    func testAndThenSkipsTheSecondAfterAFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.error(290, TestError(1))] as Events)
        let maybe = scheduler.createColdObservable([.next(20, 1), .completed(20)])
        let observable = scheduler.createColdObservable([.next(20, 1), .completed(20)])
        let failedMaybe = scheduler.start { first.asCompletable().andThen(maybe.asMaybe()) }
        XCTAssertEqual(failedMaybe.events, [.error(290, TestError(1))])
        let second = scheduler.createHotObservable([.error(1290, TestError(2))] as Events)
        let failedObservable = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            second.asCompletable().andThen(observable.asObservable())
        }
        XCTAssertEqual(failedObservable.events, [.error(1290, TestError(2))])
        XCTAssertEqual(maybe.subscriptions, [])
        XCTAssertEqual(observable.subscriptions, [])
    }

    func testDisposingStopsWhicheverPartIsRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.completed(290)] as Events)
        let long = scheduler.createColdObservable([.next(900, 1), .completed(900)])
        let res = scheduler.start { first.asCompletable().andThen(long.asMaybe()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(long.subscriptions, [Subscription(290, 1000)])
        let pending = scheduler.createHotObservable([] as Events)
        let other = scheduler.createColdObservable([.next(1, 1)])
        let early = scheduler.start(created: 1100, subscribed: 1200, disposed: 1500) {
            pending.asCompletable().andThen(other.asObservable())
        }
        XCTAssertEqual(early.events, [])
        XCTAssertEqual(pending.subscriptions, [Subscription(1200, 1500)])
        XCTAssertEqual(other.subscriptions, [])
    }
}
