import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class TestSchedulerTests: LeakCheckingTestCase {
    func testStartCreatesSubscribesAndDisposesAtTheDefaultTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
        let res = scheduler.start { xs.map { $0 * 2 } }
        XCTAssertEqual(res.events, [.next(210, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTimeoutFromTheDesignDocument() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 42), .next(220, 43), .next(300, 44)])
        let res = scheduler.start { xs.timeout(.seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 42), .next(220, 43), .error(245, ReactiveError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
    }

    func testColdObservablePlaysRelativeToEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let res = scheduler.start { ys }
        XCTAssertEqual(res.events, [.next(210, "a"), .completed(220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testDisposalAtThousandClosesAnOpenSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(500, 1)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs }
        XCTAssertEqual(res.events, [.next(500, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
