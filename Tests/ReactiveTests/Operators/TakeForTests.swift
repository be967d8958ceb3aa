import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class TakeForTests: LeakCheckingTestCase {
    func testCompletesWhenTheDurationEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testSourceCompletionBeforeTheDurationWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testErrorPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDisposeBeforeTheDurationStopsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start(disposed: 250) { xs.take(for: .seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testZeroDurationCompletesAtSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start { xs.take(for: .zero, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testRealTimeCompletionFromTheTimerThread() {
        let subject = PublishSubject<Int>()
        let events = Recorder<String>()
        let subscription = subject.take(for: .milliseconds(50), scheduler: SerialDispatchQueueScheduler(qos: .default))
            .subscribe(onNext: { events.append("next \($0)") }, onCompleted: { events.append("completed") })
        subject.onNext(1)
        XCTAssertTrue(waitUntil { events.values.contains("completed") })
        subject.onNext(2)
        XCTAssertEqual(events.values, ["next 1", "completed"])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }
}
