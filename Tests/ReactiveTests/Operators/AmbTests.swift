import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class AmbTests: LeakCheckingTestCase {
    func testTheFirstToEmitWinsAndTheOtherIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(240, 3), .completed(250)])
        let ys = scheduler.createHotObservable([.next(220, 4), .completed(260)])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testATerminalEventAlsoWinsTheRace() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 1)] as [Recorded<Event<Int>>])
        let ys = scheduler.createHotObservable([.error(220, TestError(1))] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.error(220, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testAmbOfACollectionFollowsTheFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(30, 1), .completed(40)])
        let b = scheduler.createColdObservable([.next(20, 2), .next(25, 3), .completed(50)])
        let c = scheduler.createColdObservable([.completed(60)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.amb([a.asObservable(), b.asObservable(), c.asObservable()]) }
        XCTAssertEqual(res.events, [.next(220, 2), .next(225, 3), .completed(250)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(c.subscriptions, [Subscription(200, 220)])
        let none = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) { Observable<Int>.amb([]) }
        XCTAssertEqual(none.events, [])
    }

    func testDisposedAtThousandDisposesEveryContender() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)] as [Recorded<Event<Int>>])
        let ys = scheduler.createHotObservable([.next(1100, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }
}
