import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class CombineLatestTests: LeakCheckingTestCase {
    func testCombineLatestEmitsOnceAllHaveEmittedAndCompletesWhenAllComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(260)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(220, "1a"), .next(230, "2a"), .next(240, "2b"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    /// RxSwift 6: a source that completed empty ends the result only when another source emits
    /// an element that can never be combined (or when all have completed).
    func testAnEmptySourceEndsTheResultAtTheNextUncombinableElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2)] as [Recorded<Event<Int>>])
        let ys = scheduler.createHotObservable([.completed(230)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testNeverAndEmptyNeverEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([.next(150, 1)])
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.combineLatest(never, empty) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
    }

    func testCombineLatestOfThreeAndOfAnArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(40)])
        let b = scheduler.createColdObservable([.next(20, 2), .next(30, 5), .completed(40)])
        let c = scheduler.createColdObservable([.next(25, 3), .completed(40)])
        let triples = scheduler.start { Observable.combineLatest(a, b, c) { $0 * 100 + $1 * 10 + $2 } }
        XCTAssertEqual(triples.events, [.next(225, 123), .next(230, 153), .completed(240)])

        let arrays = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.combineLatest([a.asObservable(), b.asObservable(), c.asObservable()])
        }
        XCTAssertEqual(arrays.events, [.next(1225, [1, 2, 3]), .next(1230, [1, 5, 3]), .completed(1240)])
    }

    func testCombineLatestThrowingResultSelectorErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 10), .completed(300)])
        let res = scheduler.start {
            Observable.combineLatest(xs, ys) { x, y -> Int in
                if x == 2 { throw TestError(2) }
                return x + y
            }
        }
        XCTAssertEqual(res.events, [.next(220, 11), .error(230, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testCombineLatestErrorFromOneSourceDisposesTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(240, TestError(1))])
        let ys = scheduler.createHotObservable([.next(220, 10), .completed(300)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11), .error(240, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testCombineLatestDisposedAtThousandDisposesBothSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let ys = scheduler.createHotObservable([.next(220, 10)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }
}
