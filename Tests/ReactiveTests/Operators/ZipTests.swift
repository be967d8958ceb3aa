import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class ZipTests: LeakCheckingTestCase {
    func testZipPairsByIndexAndCompletesWhenBothAreDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .next(250, "c"), .completed(260)])
        let res = scheduler.start { Observable.zip(xs, ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(220, "1a"), .next(240, "2b"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    /// RxSwift 6: zip completes only when every source has completed.
    func testZipKeepsGoingUntilEverySourceCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(230, "a"), .next(240, "b"), .completed(250)])
        let res = scheduler.start { Observable.zip(xs, ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "1a"), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testZipOfNeverAndEmptyNeverEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([.next(150, 1)])
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { Observable.zip(never, empty) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
    }

    func testZipOfThreeAndOfAnArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .next(20, 4), .completed(30)])
        let b = scheduler.createColdObservable([.next(15, 2), .next(16, 5), .completed(30)])
        let c = scheduler.createColdObservable([.next(5, 3), .next(25, 6), .completed(30)])
        let triples = scheduler.start { Observable.zip(a, b, c) { $0 * 100 + $1 * 10 + $2 } }
        XCTAssertEqual(triples.events, [.next(215, 123), .next(225, 456), .completed(230)])

        let arrays = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.zip([a.asObservable(), b.asObservable(), c.asObservable()])
        }
        XCTAssertEqual(arrays.events, [.next(1215, [1, 2, 3]), .next(1225, [4, 5, 6]), .completed(1230)])
    }

    func testZipThrowingResultSelectorErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(300)])
        let res = scheduler.start {
            Observable.zip(xs, ys) { x, y -> Int in
                if x == 2 { throw TestError(2) }
                return x + y
            }
        }
        XCTAssertEqual(res.events, [.next(220, 11), .error(240, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    func testZipErrorFromOneSourceDisposesTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(300)])
        let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11), .error(230, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testZipDisposedAtThousandDisposesBothSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let ys = scheduler.createHotObservable([.next(220, 10)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }
}
