import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// `merge(maxConcurrent:)`, `flatMapFirst`, `switchLatest` and `concat` of a collection.
final class MergeLimitedTests: LeakCheckingTestCase {
    func testMergeMaxConcurrentRunsAtMostTwoAndQueuesTheRestInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, "a"), .completed(30)])
        let b = scheduler.createColdObservable([.next(20, "b"), .completed(50)])
        let c = scheduler.createColdObservable([.next(5, "c"), .completed(10)])
        let outer = scheduler.createHotObservable([.next(210, a), .next(215, b), .next(220, c), .completed(230)])
        let res = scheduler.start { outer.merge(maxConcurrent: 2) }
        XCTAssertEqual(res.events, [.next(220, "a"), .next(235, "b"), .next(245, "c"), .completed(265)])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(b.subscriptions, [Subscription(215, 265)])
        XCTAssertEqual(c.subscriptions, [Subscription(240, 250)])
        XCTAssertEqual(outer.subscriptions, [Subscription(200, 230)])
    }

    func testMergeMaxConcurrentErrorDisposesEverythingAndDropsTheQueue() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, "a"), .error(20, TestError(1))])
        let b = scheduler.createColdObservable([.next(5, "b"), .completed(10)])
        let outer = scheduler.createHotObservable([.next(210, a), .next(215, b)])
        let res = scheduler.start { outer.merge(maxConcurrent: 1) }
        XCTAssertEqual(res.events, [.next(220, "a"), .error(230, TestError(1))])
        XCTAssertEqual(b.subscriptions, [])
        XCTAssertEqual(outer.subscriptions, [Subscription(200, 230)])
    }

    func testMergeMaxConcurrentDisposedAtThousand() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, "a")] as [Recorded<Event<String>>])
        let outer = scheduler.createHotObservable([.next(210, a)] as [Recorded<Event<TestableObservable<String>>>])
        let res = scheduler.start { outer.merge(maxConcurrent: 3) }
        XCTAssertEqual(res.events, [.next(220, "a")])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 1000)])
        XCTAssertEqual(outer.subscriptions, [Subscription(200, 1000)])
    }

    func testFlatMapFirstIgnoresElementsWhileAnInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(300)])
        let inner = scheduler.createColdObservable([.next(10, "x"), .completed(30)])
        let res = scheduler.start { xs.flatMapFirst { value in inner.map { "\($0)\(value)" } } }
        XCTAssertEqual(res.events, [.next(220, "x1"), .next(270, "x3"), .completed(300)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 240), Subscription(260, 290)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFlatMapFirstErrorsAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)] as [Recorded<Event<Int>>])
        let failing = scheduler.createColdObservable([.error(20, TestError(1))] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.flatMapFirst { _ in failing } }
        XCTAssertEqual(res.events, [.error(230, TestError(1))])
        XCTAssertEqual(failing.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let ys = scheduler.createHotObservable([.next(1210, 1)] as [Recorded<Event<Int>>])
        let open = scheduler.createColdObservable([.next(5, "o")] as [Recorded<Event<String>>])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1500) { ys.flatMapFirst { _ in open } }
        XCTAssertEqual(disposed.events, [.next(1215, "o")])
        XCTAssertEqual(open.subscriptions, [Subscription(1210, 1500)])
    }

    func testSwitchLatestFollowsTheNewestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)])
        let b = scheduler.createColdObservable([.next(10, 3), .error(50, TestError(2))])
        let outer = scheduler.createHotObservable([.next(210, a), .next(230, b)] as [Recorded<Event<TestableObservable<Int>>>])
        let res = scheduler.start { outer.switchLatest() }
        XCTAssertEqual(res.events, [.next(220, 1), .next(240, 3), .error(280, TestError(2))])
        XCTAssertEqual(a.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(b.subscriptions, [Subscription(230, 280)])
        XCTAssertEqual(outer.subscriptions, [Subscription(200, 280)])
    }

    func testConcatOfACollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let c = scheduler.createColdObservable([.next(5, 3)] as [Recorded<Event<Int>>])
        let slice = [a.asObservable(), b.asObservable(), c.asObservable()][...]
        let res = scheduler.start { Observable.concat(slice) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(225, 2), .next(235, 3)])
        XCTAssertEqual(b.subscriptions, [Subscription(220, 230)])
        XCTAssertEqual(c.subscriptions, [Subscription(230, 1000)])

        let fromSequence = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.concat(AnySequence([a.asObservable(), b.asObservable()]))
        }
        XCTAssertEqual(fromSequence.events, [.next(1210, 1), .next(1225, 2), .completed(1230)])
    }
}
