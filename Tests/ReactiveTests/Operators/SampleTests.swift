import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class SampleTests: LeakCheckingTestCase {
    /// RxSwift's `testSample_Sampler_Simple1`: each tick emits the newest element since the last
    /// one; after the source completes, the next tick emits what is left and completes.
    func testEmitsTheNewestElementAtEachTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .completed(320),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
        ])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .next(320, 6), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 320)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 320)])
    }

    func testDefaultValueFillsTicksWithoutANewElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .completed(400)])
        let ys = scheduler.createHotObservable([.next(210, ()), .next(230, ()), .next(240, ()), .completed(300)])
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(230, 2), .next(240, 0), .next(300, 0)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testAnErrorFromEitherSideEndsTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .error(260, TestError(1))])
        let ys = scheduler.createHotObservable([.next(230, "a"), .next(290, "b")] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(230, 2), .error(260, TestError(1))])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])

        let zs = scheduler.createHotObservable([.next(1220, 2)] as [Recorded<Event<Int>>])
        let ticks = scheduler.createHotObservable([.next(1230, "a"), .error(1240, TestError(2))])
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { zs.sample(ticks) }
        XCTAssertEqual(failed.events, [.next(1230, 2), .error(1240, TestError(2))])
        XCTAssertEqual(zs.subscriptions, [Subscription(1200, 1240)])
    }

    func testDisposedAtThousandDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2)] as [Recorded<Event<Int>>])
        let ys = scheduler.createHotObservable([.next(230, "a")] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(230, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }
}
