import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class BufferTests: LeakCheckingTestCase {
    func testEmitsByCountAndByTimeRestartingTheTimerEachTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(280, 4), .next(350, 5), .completed(420),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(230, [1, 2, 3]), .next(300, [4]), .next(370, [5]), .next(420, []), .completed(420),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 420)])
    }

    func testRxSwiftsBasicTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
            .next(370, 7), .next(420, 8), .next(470, 9), .completed(600),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]), .next(510, [9]),
            .next(580, []), .next(600, []), .completed(600),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testAnEmptyIntervalEmitsAnEmptyArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .completed(330)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(300, [1]), .next(330, []), .completed(330)])
    }

    func testAnErrorDropsTheCollectedElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(250, TestError(1))])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(250, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDisposeStopsTheSourceAndTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        let res = scheduler.start(disposed: 350) { xs.buffer(timeSpan: .seconds(100), count: 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(300, [1])])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
    }

    func testRealTimeTimerAndSourceDoNotOverlap() {
        let subject = PublishSubject<Int>()
        let arrays = Recorder<[Int]>()
        let subscription = subject.buffer(timeSpan: .milliseconds(5), count: 4, scheduler: SerialDispatchQueueScheduler(qos: .default))
            .subscribe(onNext: { arrays.append($0) })
        for value in 0..<200 { subject.onNext(value) }
        XCTAssertTrue(waitUntil { arrays.values.flatMap { $0 }.count == 200 })
        subscription.dispose()
        XCTAssertEqual(arrays.values.flatMap { $0 }, Array(0..<200))
        XCTAssertTrue(arrays.values.allSatisfy { $0.count <= 4 })
    }
}
