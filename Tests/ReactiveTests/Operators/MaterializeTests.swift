import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class MaterializeTests: LeakCheckingTestCase {
    func testEventsBecomeElementsThenCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [.next(210, .next(1)), .next(220, .next(2)), .next(250, .completed), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAnErrorBecomesAnElementAndTheResultCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [.next(210, .next(1)), .next(250, .error(TestError(1))), .completed(250)])
    }

    func testDisposeStopsUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(1100)])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [.next(210, .next(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDematerializeTurnsElementsBackIntoEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event<Int>.next(1)), .next(220, .next(2)), .next(230, .completed), .next(240, .next(3)), .completed(300),
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDematerializeOfAnErrorElementFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event<Int>.next(1)), .next(220, .error(TestError(5))), .completed(300)])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(5))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDematerializePassesSourceTerminalsAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event<Int>.next(1)), .error(250, TestError(2))])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError(2))])

        let disposeScheduler = TestScheduler(initialClock: 0)
        let ys = disposeScheduler.createHotObservable([.next(210, Event<Int>.next(1)), .next(1100, .completed)])
        let disposed = disposeScheduler.start { ys.dematerialize() }
        XCTAssertEqual(disposed.events, [.next(210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testRoundTrip() {
        let values = Recorder<Int>()
        let completed = Recorder<Bool>()
        _ = Observable.of(1, 2, 3).materialize().dematerialize()
            .subscribe(onNext: { values.append($0) }, onCompleted: { completed.append(true) })
        XCTAssertEqual(values.values, [1, 2, 3])
        XCTAssertEqual(completed.values, [true])
    }
}
