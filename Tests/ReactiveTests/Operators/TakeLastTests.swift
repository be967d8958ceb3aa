import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class TakeLastTests: LeakCheckingTestCase {
    func testEmitsTheLastElementsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(300)])
        let res = scheduler.start { xs.takeLast(3) }
        XCTAssertEqual(res.events, [.next(300, 3), .next(300, 4), .next(300, 5), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFewerElementsThanTheCountAreAllEmitted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.takeLast(5) }
        XCTAssertEqual(res.events, [.next(300, 1), .next(300, 2), .completed(300)])
    }

    func testZeroEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.takeLast(0) }
        XCTAssertEqual(res.events, [.completed(300)])
    }

    func testAnErrorDropsTheBufferedElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(300, TestError(1))])
        let res = scheduler.start { xs.takeLast(2) }
        XCTAssertEqual(res.events, [.error(300, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testDisposeBeforeCompletionEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(1100)])
        let res = scheduler.start { xs.takeLast(2) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testADownstreamTakeStopsTheReplayOfTheBuffer() {
        let values = Recorder<Int>()
        _ = Observable.range(start: 1, count: 10).takeLast(4).take(2).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [7, 8])
    }
}
