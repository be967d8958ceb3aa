import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class SubscribeOnTimelineTests: LeakCheckingTestCase {
    func testSubscribeOnTheTestSchedulerSubscribesAtTheSameTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(300)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSubscribeOnPassesAnUpstreamErrorThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAThrowingMapBeforeSubscribeOnErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw TestError(2) }
                return value
            }
            .subscribe(on: scheduler)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testSubscribeOnDisposesOnTheSchedulerAtThousand() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    /// RxTest's `testSubscribeOn_SchedulerCompleted` and `_SchedulerError`, ported unchanged.
    func testRxTestTimingsWithTheSimulatedProcessingDelay() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])

        let ys = scheduler.createHotObservable([.next(1150, 1), .error(1300, TestError(1))])
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.subscribe(on: scheduler) }
        XCTAssertEqual(failed.events, [.error(1300, TestError(1))])
        XCTAssertEqual(ys.subscriptions, [Subscription(1201, 1301)])

        let zs = scheduler.createHotObservable([.next(2150, 1)] as [Recorded<Event<Int>>])
        let open = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { zs.subscribe(on: scheduler) }
        XCTAssertEqual(open.events, [])
        XCTAssertEqual(zs.subscriptions, [Subscription(2201, 3001)])
    }

    func testDisposingBeforeTheScheduledSubscriptionNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            let subscription = xs.subscribe(on: scheduler).subscribe(observer)
            subscription.dispose()
        }
        scheduler.start()
        XCTAssertEqual(observer.events, [])
        XCTAssertEqual(xs.subscriptions, [])
    }
}
