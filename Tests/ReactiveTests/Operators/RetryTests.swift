import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class RetryTests: LeakCheckingTestCase {
    func testRetryCountsTheFirstAttempt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    func testRetryOfASynchronouslyFailingSourceMakesExactlyMaxAttempts() {
        let attempts = Recorder<Int>()
        let events = Recorder<String>()
        Observable<Int>.deferred {
            attempts.append(attempts.count + 1)
            return .error(TestError(attempts.count))
        }
        .retry(3)
        .subscribe(onNext: { events.append("next \($0)") }, onError: { events.append("error \($0)") })
        XCTAssertEqual(attempts.values, [1, 2, 3])
        XCTAssertEqual(events.values, ["error \(TestError(3))"])
    }

    func testRetryOneIsASingleAttempt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry(1) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRetryStopsResubscribingOnceTheSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1)), .next(230, 2), .completed(240)])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240)])
    }

    func testRetryResubscribesAfterAThrowingMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw TestError(2) }
                return value
            }
            .retry(2)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .error(240, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240)])
    }

    func testRetryDisposedAtThousandDisposesTheCurrentAttempt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(500, TestError(1))])
        let res = scheduler.start { xs.retry(5) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(710, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 700), Subscription(700, 1000)])
    }

    func testRetryWhenResubscribesAtOnceAndFailsWithTheTriggersError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start {
            xs.retry { errors in
                errors.scan(0) { count, _ in count + 1 }.map { count -> Void in
                    if count >= 3 { throw TestError(99) }
                }
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, TestError(99))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    func testRetryWhenWithADelayedTriggerReleasesTheFailedAttemptAtItsErrorTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start(disposed: 290) {
            xs.retry { errors in errors.flatMap { _ in Observable<Int>.timer(.seconds(5), scheduler: scheduler) } }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(235, 1), .next(260, 1), .next(285, 1)])
        XCTAssertEqual(xs.subscriptions, [
            Subscription(200, 220), Subscription(225, 245), Subscription(250, 270), Subscription(275, 290),
        ])
    }

    func testRetryWhenCompletesWhenTheTriggerCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry { errors in errors.take(1).filter { _ in false } } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRetryWhenCompletesWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1)), .next(230, 2), .completed(240)])
        let res = scheduler.start { xs.retry { errors in errors } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240)])
    }

    func testRetryWhenDisposedAtThousandDisposesSourceAndTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let trigger = scheduler.createHotObservable([.next(1100, 0)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.retry { _ in trigger } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(trigger.subscriptions.map(\.unsubscribe), [1000])
    }

    func testRetryWhenIgnoresTriggersWhileTheSourceIsHealthy() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let trigger = scheduler.createHotObservable([.next(220, 0), .next(230, 0)])
        let res = scheduler.start { xs.retry { _ in trigger } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(260, 2), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testRetryWhenATriggerEndingBeforeAnyErrorWaitsForTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let trigger = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.retry { _ in trigger } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testRetryWhenATriggerThatCompletedEarlierCompletesTheResultAtTheNextError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let trigger = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.retry { _ in trigger } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testRetryWhenATriggerThatFailedEarlierFailsTheResultAtTheNextError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(50, TestError(1))])
        let trigger = scheduler.createHotObservable([.error(220, TestError(9))] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.retry { _ in trigger } }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError(9))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testRetryWhenWithASynchronouslyFailingSourceEndsWithTheTrigger() {
        let attempts = Recorder<Int>()
        let events = Recorder<String>()
        Observable<Int>.deferred {
            attempts.append(attempts.count + 1)
            return .error(TestError(1))
        }
        .retry { errors in errors.take(3) }
        .subscribe(onError: { events.append("error \($0)") }, onCompleted: { events.append("completed") })
        XCTAssertEqual(attempts.count, 3)
        XCTAssertEqual(events.values, ["completed"])
    }

    func testRetryWhenLoopsInsteadOfRecursingForManySynchronousFailures() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        let attempts = Recorder<Int>()
        let events = Recorder<String>()
        Observable<Int>.deferred {
            attempts.append(0)
            return .error(TestError(1))
        }
        .retry { errors in errors.take(50_000) }
        .subscribe(onError: { events.append("error \($0)") }, onCompleted: { events.append("completed") })
        XCTAssertEqual(attempts.count, 50_000)
        XCTAssertEqual(events.values, ["completed"])
    }

    /// The trigger ends on another thread while an element is being delivered: it must not wait
    /// for the observer (RetryWhen held its lock across forwarding, so the trigger blocked).
    func testStressRetryWhenATriggerOnAnotherThreadNeverWaitsForABusyObserver() {
        for round in 0..<50 {
            let source = PublishSubject<Int>()
            let trigger = PublishSubject<Int>()
            let events = Recorder<String>()
            let triggerReturned = DispatchSemaphore(value: 0)
            let waited = Recorder<Bool>()
            let subscription = source.retry { _ in trigger }.subscribe(
                onNext: { element in
                    DispatchQueue.global().async {
                        if round.isMultiple(of: 2) { trigger.onCompleted() } else { trigger.onError(TestError(round)) }
                        triggerReturned.signal()
                    }
                    waited.append(triggerReturned.wait(timeout: .now() + 10) == .success)
                    events.append("next \(element)")
                },
                onError: { events.append("error \($0)") },
                onCompleted: { events.append("completed") })
            source.onNext(round)
            source.onError(TestError(-1))
            XCTAssertEqual(waited.values, [true], "round \(round): the trigger's event returned while the observer was busy")
            XCTAssertEqual(events.values, ["next \(round)", round.isMultiple(of: 2) ? "completed" : "error \(TestError(round))"])
            subscription.dispose()
        }
    }
}
