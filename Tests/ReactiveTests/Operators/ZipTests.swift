import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class ZipTests: LeakCheckingTestCase {
    /// RxSwift code that sums eight sources in a closure whose parameter types the compiler must
    /// infer: it compiles (the per-arity overloads) and gives the sum once all have answered.
    func testZipOfEightWithAnInferredClosure() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...8).map { scheduler.createColdObservable([.next($0 * 10, $0), .completed($0 * 10)]) }
        let res = scheduler.start {
            Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
        }
        XCTAssertEqual(res.events, [.next(280, 36), .completed(280)])
    }

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

/// RxSwift's `zip` of a collection and of more than three sources.
final class ZipCollectionTests: LeakCheckingTestCase {
    func testZipOfAnEmptyCollectionCompletesAtSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.zip([Observable<Int>]()) }
        XCTAssertEqual(res.events.map(\.time), [200])
        XCTAssertEqual(res.events.first?.value.isStopEvent, true)
        XCTAssertNil(res.events.first?.value.error)
    }

    /// RxSwift's `testZip_NAry_asymmetric`: a collection zip ends when an element arrives that
    /// can never be paired because every other source has completed.
    func testZipOfACollectionEndsAtAnElementThatCanNeverBePaired() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(270)])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 5), .next(290, 7), .next(310, 9), .completed(410),
        ])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .next(280, 8), .completed(300)])
        let res = scheduler.start { Observable.zip([e0, e1, e2].map { $0.asObservable() }) { $0.map(String.init).joined() } }
        XCTAssertEqual(res.events, [.next(230, "123"), .next(260, "456"), .completed(310)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 270)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 310)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 300)])
    }

    func testZipOfACollectionFailsWithTheFirstErrorAndDisposesAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let e1 = scheduler.createHotObservable([.next(220, 2), .next(240, 5), .completed(410)])
        let res = scheduler.start { Observable.zip([e0.asObservable(), e1.asObservable()]) }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .error(250, TestError(1))])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
    }

    func testZipOfACollectionDisposedAtThousandDisposesAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let e1 = scheduler.createHotObservable([.next(220, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.zip([e0.asObservable(), e1.asObservable()]) { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(220, 3)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
    }

    func testZipOfEightSourcesAsATupleAndThroughAResultSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (1...8).map { index in
            scheduler.createHotObservable([.next(200 + index, index), .next(300 + index, index * 10), .completed(400 + index)])
        }
        let tuples = scheduler.start {
            Observable.zip(sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7])
                .map { "\($0.0) \($0.1) \($0.2) \($0.3) \($0.4) \($0.5) \($0.6) \($0.7)" }
        }
        XCTAssertEqual(tuples.events, [
            .next(208, "1 2 3 4 5 6 7 8"), .next(308, "10 20 30 40 50 60 70 80"), .completed(408),
        ])
        let sums = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.zip(sources[0], sources[1], sources[2], sources[3]) { $0 + $1 + $2 + $3 }
        }
        XCTAssertEqual(sums.events, [], "hot sources played before this subscription")
        XCTAssertEqual(sources[0].subscriptions, [Subscription(200, 401), Subscription(1200, 2000)])
    }

    func testZipOfFourWithTypesOfTheirOwn() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(11, "b"), .completed(20)])
        let c = scheduler.createColdObservable([.next(12, 2.5), .completed(20)])
        let d = scheduler.createColdObservable([.next(13, true), .completed(30)])
        let res = scheduler.start { Observable.zip(a, b, c, d) { "\($0)\($1)\($2)\($3)" } }
        XCTAssertEqual(res.events, [.next(213, "1b2.5true"), .completed(230)])
        XCTAssertEqual(d.subscriptions, [Subscription(200, 230)])
    }
}
