import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class TakeUntilTests: LeakCheckingTestCase {
    func testCompletesWhenTheOtherEmitsAndDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(240, 4), .completed(300)])
        let ys = scheduler.createHotObservable([.next(150, "x"), .next(225, "stop"), .completed(250)])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testTheOthersCompletionChangesNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4), .completed(300)])
        let ys = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(240, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testAnErrorOfTheOtherFailsTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 4), .completed(300)])
        let ys = scheduler.createHotObservable([.error(230, TestError(7))] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(230, TestError(7))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testASourceErrorPassesThroughAndDisposesTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, TestError(1))])
        let ys = scheduler.createHotObservable([.next(260, "late")])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(230, TestError(1))])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testDisposeStopsBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(1100, 3)])
        let ys = scheduler.createHotObservable([.next(1200, "late")])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testAnOtherThatEmitsAtSubscriptionCompletesWithoutSubscribingTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2)])
        let res = scheduler.start { xs.take(until: Observable.just(())) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testATriggerFiredFromInsideTheObserverCompletesAfterThatElement() {
        let source = PublishSubject<Int>()
        let trigger = PublishSubject<Void>()
        let events = Recorder<String>()
        let subscription = source.take(until: trigger).subscribe(
            onNext: { value in
                events.append("next \(value)")
                trigger.onNext(())
                events.append("after trigger \(value)")
            },
            onCompleted: { events.append("completed") }
        )
        source.onNext(1)
        source.onNext(2)
        XCTAssertEqual(events.values, ["next 1", "after trigger 1", "completed"])
        XCTAssertFalse(trigger.hasObservers)
        XCTAssertFalse(source.hasObservers)
        subscription.dispose()
    }

    func testPredicateExclusiveCompletesWithoutTheMatchingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let res = scheduler.start { xs.take(until: { $0 == 3 }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testPredicateInclusiveEmitsTheMatchingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let res = scheduler.start { xs.take(until: { $0 == 3 }, behavior: .inclusive) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testPredicateThrowFailsAtThatElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.take(until: { value -> Bool in
                if value == 2 { throw TestError(2) }
                return false
            })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testPredicateNeverTrueEndsWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let res = scheduler.start { xs.take(until: { $0 > 10 }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError(1))])
    }
}
