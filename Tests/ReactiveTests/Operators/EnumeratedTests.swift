import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class EnumeratedTests: LeakCheckingTestCase {
    func testPairsEachElementWithItsIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, "z"), .next(210, "a"), .next(220, "b"), .next(230, "c"), .completed(250)])
        let res = scheduler.start { xs.enumerated().map { "\($0.index):\($0.element)" } }
        XCTAssertEqual(res.events, [.next(210, "0:a"), .next(220, "1:b"), .next(230, "2:c"), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testEachSubscriptionCountsFromZero() {
        let values = Recorder<Int>()
        let source = Observable.of("a", "b").enumerated()
        _ = source.subscribe(onNext: { values.append($0.index) })
        _ = source.subscribe(onNext: { values.append($0.index) })
        XCTAssertEqual(values.values, [0, 1, 0, 1])
    }

    func testErrorAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(250, TestError(1))])
        let res = scheduler.start { xs.enumerated().map(\.index) }
        XCTAssertEqual(res.events, [.next(210, 0), .error(250, TestError(1))])

        let disposeScheduler = TestScheduler(initialClock: 0)
        let ys = disposeScheduler.createHotObservable([.next(210, "a"), .next(1100, "b")])
        let disposed = disposeScheduler.start { ys.enumerated().map(\.index) }
        XCTAssertEqual(disposed.events, [.next(210, 0)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }
}
