import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class SkipUntilTests: LeakCheckingTestCase {
    func testEmitsTheElementsAfterTheOtherEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let ys = scheduler.createHotObservable([.next(225, "go"), .next(235, "again"), .completed(250)])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [.next(230, 3), .next(240, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testAnErrorOfTheOtherFailsTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.error(220, TestError(3))] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [.error(220, TestError(3))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testASourceCompletingBeforeTheOtherEndsSilentlyAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        let ys = scheduler.createHotObservable([.next(250, "late")])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testASourceErrorPassesThroughEvenBeforeTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(1))])
        let ys = scheduler.createHotObservable([.next(250, "late")])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [.error(230, TestError(1))])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testAnOtherThatOnlyCompletesKeepsSkipping() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 3)])
        let ys = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testDisposeStopsBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 3)])
        let ys = scheduler.createHotObservable([.next(1200, "late")])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }
}
