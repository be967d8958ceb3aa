import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class DelaySubscriptionTests: LeakCheckingTestCase {
    func testSubscribesAfterTheDueTimeAndPassesEventsThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .completed(70)])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(280, 42), .next(290, 43), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 300)])
    }

    func testAnErrorEndsTheSequenceAndReleasesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .error(60, TestError(1))])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(280, 42), .error(290, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 290)])
    }

    func testDisposingBeforeTheDueTimeNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .completed(10)])
        let res = scheduler.start(created: 100, subscribed: 200, disposed: 220) {
            xs.delaySubscription(.seconds(30), scheduler: scheduler)
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [])
        XCTAssertEqual(scheduler.clock, 220, "the cancelled subscription leaves nothing scheduled")
    }

    func testDisposingAfterTheSubscriptionDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .next(900, 43)])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(280, 42)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 1000)])
    }

    func testSubscribesOnTheSchedulersQueue() {
        let queue = DispatchQueue(label: "delaySubscription.test")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let onQueue = Recorder<Bool>()
        let done = Recorder<Int>()
        let source = Observable<Int>.deferred {
            onQueue.append(DispatchQueue.getSpecific(key: key) == true)
            return .just(1)
        }
        let subscription = source
            .delaySubscription(.milliseconds(10), scheduler: SerialDispatchQueueScheduler(queue: queue))
            .subscribe(onNext: { done.append($0) })
        XCTAssertTrue(waitUntil { done.count == 1 })
        subscription.dispose()
        XCTAssertEqual(onQueue.values, [true])
        XCTAssertEqual(done.values, [1])
    }
}
