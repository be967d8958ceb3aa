import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class WithLatestFromTests: LeakCheckingTestCase {
    /// RxSwift's `testWithLatestFrom_Simple1`: elements before `second`'s first are dropped;
    /// the result completes with the first sequence.
    func testCombinesEachElementWithTheLatestOfTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(90, 1), .next(180, 2), .next(250, 3), .next(260, 4), .next(310, 5), .next(340, 6),
            .next(410, 7), .next(420, 8), .next(470, 9), .next(550, 10), .completed(590),
        ])
        let ys = scheduler.createHotObservable([
            .next(255, "bar"), .next(330, "foo"), .next(350, "qux"), .completed(400),
        ])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [
            .next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"), .next(410, "7qux"),
            .next(420, "8qux"), .next(470, "9qux"), .next(550, "10qux"), .completed(590),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 590)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 400)])
    }

    func testWithoutASelectorEmitsTheSecondsLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b")] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.next(230, "a"), .next(250, "b"), .completed(300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testSecondsErrorEndsTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(205, "a"), .error(220, TestError(2))])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(210, "1a"), .error(220, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testFirstsErrorAndAThrowingSelectorEndTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let ys = scheduler.createHotObservable([.next(205, "a")] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.next(210, "a"), .error(230, TestError(1))])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])

        let zs = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .completed(1300)])
        let ws = scheduler.createColdObservable([.next(1, "w")] as [Recorded<Event<String>>])
        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            zs.withLatestFrom(ws) { value, _ -> Int in
                if value == 2 { throw TestError(3) }
                return value
            }
        }
        XCTAssertEqual(thrown.events, [.next(1210, 1), .error(1220, TestError(3))])
        XCTAssertEqual(zs.subscriptions, [Subscription(1200, 1220)])
        XCTAssertEqual(ws.subscriptions, [Subscription(1200, 1220)])
    }

    func testDisposedAtThousandDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let ys = scheduler.createHotObservable([.next(205, 10)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.withLatestFrom(ys) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(210, 11)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }
}
