import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class AsSingleTests: LeakCheckingTestCase {
    func testOneElementSucceedsAtTheCompletionTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(250)])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [.next(250, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAnEmptySourceFailsWithNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [.error(250, ReactiveError.noElements)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testASecondElementFailsWithMoreThanOneElementAtItsTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [.error(220, ReactiveError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAnUpstreamErrorPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [.error(230, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testAThrowingMapUpstreamFailsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.map { _ -> Int in throw TestError(2) }.asSingle() }
        XCTAssertEqual(res.events, [.error(210, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDisposedAtThousandReleasesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testAsMaybeCompletesEmptyAndFailsOnASecondElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let two = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let emptyResult = scheduler.start { empty.asMaybe() }
        XCTAssertEqual(emptyResult.events, [.completed(250)])
        let twoResult = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { two.asMaybe() }
        XCTAssertEqual(twoResult.events, [])
        XCTAssertEqual(two.subscriptions, [Subscription(1200, 2000)])
    }
}
