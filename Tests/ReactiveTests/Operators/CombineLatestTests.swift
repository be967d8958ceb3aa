import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class CombineLatestTests: LeakCheckingTestCase {
    /// RxSwift code that sums eight sources in a closure whose parameter types the compiler must
    /// infer: it compiles (the per-arity overloads) and gives the sum once all have answered.
    func testCombineLatestOfEightWithAnInferredClosure() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...8).map { scheduler.createColdObservable([.next($0 * 10, $0), .completed($0 * 10)]) }
        let res = scheduler.start {
            Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
        }
        XCTAssertEqual(res.events, [.next(280, 36), .completed(280)])
    }

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

/// RxSwift's `combineLatest` of a collection and of more than three sources.
final class CombineLatestCollectionTests: LeakCheckingTestCase {
    func testCombineLatestOfAnEmptyCollectionEmitsAnEmptyArrayAndCompletesAtSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) }
        XCTAssertEqual(res.events, [.next(200, []), .completed(200)])
        let counted = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.combineLatest([Observable<Int>]()) { $0.count + 5 }
        }
        XCTAssertEqual(counted.events, [.next(1200, 5), .completed(1200)])
    }

    func testCombineLatestOfACollectionThroughAResultSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .completed(250)])
        let e2 = scheduler.createHotObservable([.next(230, 3), .completed(260)])
        let res = scheduler.start { Observable.combineLatest([e0, e1, e2].map { $0.asObservable() }) { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(230, 6), .next(240, 9), .completed(300)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
    }

    func testCombineLatestOfACollectionFailsAtTheFirstError() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let e1 = scheduler.createHotObservable([.next(220, 2), .next(240, 3)])
        let res = scheduler.start { Observable.combineLatest([e0.asObservable(), e1.asObservable()]) }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .error(230, TestError(1))])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
    }

    func testCombineLatestOfACollectionDisposedAtThousand() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let e1 = scheduler.createHotObservable([.next(220, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.combineLatest([e0.asObservable(), e1.asObservable()]) }
        XCTAssertEqual(res.events, [.next(220, [1, 2])])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
    }

    func testCombineLatestOfEightSourcesAsATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...8).map { index in scheduler.createHotObservable([.next(200 + index, index), .completed(300)]) }
        let extra = scheduler.createHotObservable([.next(250, 100)] as [Recorded<Event<Int>>])
        let res = scheduler.start {
            Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], extra)
                .map { (values: (Int, Int, Int, Int, Int, Int, Int, Int)) -> Int in
                    let (a, b, c, d, e, f, g, h) = values
                    return [a, b, c, d, e, f, g, h].reduce(0, +)
                }
        }
        XCTAssertEqual(res.events, [.next(250, 128)])
        XCTAssertEqual(extra.subscriptions, [Subscription(200, 1000)])
        let five = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { (a: Int, b: Int, c: Int, d: Int, e: Int) -> Int in
                [a, b, c, d, e].reduce(1, *)
            }
        }
        XCTAssertEqual(five.events, [], "hot sources played before this subscription")
    }
}
