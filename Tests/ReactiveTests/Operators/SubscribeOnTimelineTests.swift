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
