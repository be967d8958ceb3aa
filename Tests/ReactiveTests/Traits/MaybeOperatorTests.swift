import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// A Sendable object for `subscribe(with:)`, released by the test to check the weak hold.
private final class Owner: Sendable {
    let log = Recorder<String>()
}

final class MaybeOperatorTests: LeakCheckingTestCase {
    private typealias Events = [Recorded<Event<Int>>]

    // MARK: subscribe

    func testSubscribeWithAnEventClosureGetsOneOutcome() {
        let log = Recorder<String>()
        let record: @Sendable (MaybeEvent<Int>) -> Void = { event in
            switch event {
            case .success(let value): log.append("success \(value)")
            case .completed: log.append("completed")
            case .error(let error): log.append("error \((error as? TestError)?.code ?? -1)")
            }
        }
        Maybe.just(1).subscribe(record)
        Maybe<Int>.empty().subscribe(record)
        Maybe<Int>.error(TestError(2)).subscribe(record)
        Maybe<Int>.create { observer in
            observer(.success(3))
            observer(.completed)
            observer(.success(4))
            return Disposables.create()
        }
        .subscribe(record)
        XCTAssertEqual(log.values, ["success 1", "completed", "error 2", "success 3"])
    }

    func testSubscribeWithAnEventClosureSeesNothingAfterDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(300, 1), .completed(300)])
        let log = Recorder<Int>()
        let subscription = xs.asMaybe().subscribe { _ in log.append(scheduler.clock) }
        scheduler.scheduleAt(250) { subscription.dispose() }
        scheduler.start()
        XCTAssertEqual(log.values, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 250)])
    }

    func testSubscribeWithAnObjectHoldsItWeakly() {
        var owner: Owner? = Owner()
        let log = owner?.log ?? Recorder<String>()
        Maybe.just(5).subscribe(
            with: owner ?? Owner(),
            onSuccess: { $0.log.append("success \($1)") },
            onCompleted: { $0.log.append("completed") },
            onDisposed: { $0.log.append("disposed") }
        )
        Maybe<Int>.empty().subscribe(with: owner ?? Owner(), onCompleted: { $0.log.append("empty") })
        let subject = PublishSubject<Int>()
        let subscription = subject.asMaybe().subscribe(with: owner ?? Owner(), onSuccess: { owner, _ in owner.log.append("late") })
        owner = nil
        subject.onNext(1)
        subject.onCompleted()
        subscription.dispose()
        XCTAssertEqual(log.values, ["success 5", "disposed", "empty"])
    }

    // MARK: transforming

    func testCompactMapAndCatchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 4), .completed(10)])
        let kept = scheduler.start { xs.asMaybe().compactMap { $0 > 3 ? "\($0)" : nil } }
        XCTAssertEqual(kept.events, [.next(210, "4"), .completed(210)])
        let dropped = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.asMaybe().compactMap { $0 > 5 ? "\($0)" : nil }
        }
        XCTAssertEqual(dropped.events, [.completed(1210)])
        let ys = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        let recovered = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { ys.asMaybe().catchAndReturn(7) }
        XCTAssertEqual(recovered.events, [.next(2210, 7), .completed(2210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(2200, 2210)])
    }

    func testIfEmptyFallsBackOnlyWhenEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createColdObservable([.completed(10)] as Events)
        let full = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let fallback = scheduler.createColdObservable([.next(5, 9), .completed(5)])
        XCTAssertEqual(scheduler.start { empty.asMaybe().ifEmpty(default: 8) }.events, [.next(210, 8), .completed(210)])
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { full.asMaybe().ifEmpty(default: 8) }.events,
            [.next(1210, 1), .completed(1210)]
        )
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
                empty.asMaybe().ifEmpty(switchTo: fallback.asMaybe())
            }.events,
            [.next(2215, 9), .completed(2215)]
        )
        XCTAssertEqual(
            scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) {
                full.asMaybe().ifEmpty(switchTo: fallback.asSingle())
            }.events,
            [.next(3210, 1), .completed(3210)]
        )
        XCTAssertEqual(fallback.subscriptions, [Subscription(2210, 2215)])
        let failing = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        XCTAssertEqual(
            scheduler.start(created: 4100, subscribed: 4200, disposed: 5000) { failing.asMaybe().ifEmpty(default: 8) }.events,
            [.error(4210, TestError(1))]
        )
    }

    func testIfEmptyDisposedBeforeTheFallbackEndsReleasesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createColdObservable([.completed(10)] as Events)
        let fallback = scheduler.createColdObservable([.next(900, 9), .completed(900)])
        let res = scheduler.start { empty.asMaybe().ifEmpty(switchTo: fallback.asSingle()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(fallback.subscriptions, [Subscription(210, 1000)])
    }

    func testDeferredBuildsTheMaybePerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let calls = Recorder<Int>()
        let deferred = Maybe<Int>.deferred {
            calls.append(scheduler.clock)
            if calls.count == 2 { throw TestError(3) }
            return .just(calls.count)
        }
        XCTAssertEqual(scheduler.start { deferred }.events, [.next(200, 1), .completed(200)])
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) { deferred }.events,
            [.error(1200, TestError(3))]
        )
    }

    // MARK: do

    func testDoRunsItsCallbacksInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1), .completed(250)])
        let log = Recorder<String>()
        let res = scheduler.start {
            xs.asMaybe().do(
                onNext: { log.append("onNext \($0)") },
                afterNext: { log.append("afterNext \($0)") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose \(scheduler.clock)") }
            )
        }
        XCTAssertEqual(res.events, [.next(250, 1), .completed(250)])
        XCTAssertEqual(log.values, [
            "onSubscribe", "onSubscribed", "onNext 1", "afterNext 1", "onCompleted", "afterCompleted", "onDispose 250",
        ])
    }

    func testDoSeesErrorsAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(50, TestError(1))] as Events)
        let log = Recorder<String>()
        let failed = scheduler.start {
            xs.asMaybe().do(onError: { _ in log.append("onError") }, afterError: { _ in log.append("afterError") })
        }
        XCTAssertEqual(failed.events, [.error(250, TestError(1))])
        let ys = scheduler.createColdObservable([] as Events)
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            ys.asMaybe().do(onNext: { _ in throw TestError(2) }, onDispose: { log.append("onDispose \(scheduler.clock)") })
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(log.values, ["onError", "afterError", "onDispose 1300"])
    }

    // MARK: time

    func testDelayShiftsSuccessAndEmptyButNotAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let success = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let empty = scheduler.createColdObservable([.completed(50)] as Events)
        let failure = scheduler.createColdObservable([.error(50, TestError(1))] as Events)
        XCTAssertEqual(
            scheduler.start { success.asMaybe().delay(.seconds(10), scheduler: scheduler) }.events,
            [.next(260, 1), .completed(260)]
        )
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                empty.asMaybe().delay(.seconds(10), scheduler: scheduler)
            }.events,
            [.completed(1260)]
        )
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
                failure.asMaybe().delay(.seconds(10), scheduler: scheduler)
            }.events,
            [.error(2250, TestError(1))]
        )
        XCTAssertEqual(
            scheduler.start(created: 3100, subscribed: 3200, disposed: 3255) {
                success.asMaybe().delay(.seconds(10), scheduler: scheduler)
            }.events,
            [],
            "disposed between the success and its delayed delivery"
        )
        XCTAssertEqual(success.subscriptions.last, Subscription(3200, 3250))
    }

    func testDelaySubscriptionSubscribesLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        XCTAssertEqual(
            scheduler.start { xs.asMaybe().delaySubscription(.seconds(30), scheduler: scheduler) }.events,
            [.next(240, 1), .completed(240)]
        )
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                ys.asMaybe().delaySubscription(.seconds(30), scheduler: scheduler)
            }.events,
            [.error(1240, TestError(1))]
        )
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 2229) {
                xs.asMaybe().delaySubscription(.seconds(30), scheduler: scheduler)
            }.events,
            []
        )
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1230, 1240)])
    }

    func testTimeoutFailsOrSwitchesWhenLate() {
        let scheduler = TestScheduler(initialClock: 0)
        let late = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let onTime = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let other = scheduler.createColdObservable([.next(5, 3), .completed(5)])
        XCTAssertEqual(
            scheduler.start { late.asMaybe().timeout(.seconds(30), scheduler: scheduler) }.events,
            [.error(230, ReactiveError.timeout)]
        )
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                onTime.asMaybe().timeout(.seconds(30), scheduler: scheduler)
            }.events,
            [.next(1210, 2), .completed(1210)]
        )
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
                late.asMaybe().timeout(.seconds(30), other: other.asMaybe(), scheduler: scheduler)
            }.events,
            [.next(2235, 3), .completed(2235)]
        )
        XCTAssertEqual(late.subscriptions, [Subscription(200, 230), Subscription(2200, 2230)])
        XCTAssertEqual(other.subscriptions, [Subscription(2230, 2235)])
        XCTAssertEqual(
            scheduler.start(created: 3100, subscribed: 3200, disposed: 3220) {
                late.asMaybe().timeout(.seconds(30), scheduler: scheduler)
            }.events,
            []
        )
        XCTAssertEqual(late.subscriptions.last, Subscription(3200, 3220))
    }

    func testObserveOnAndSubscribeOnKeepTheTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let ys = scheduler.createColdObservable([.error(50, TestError(1))] as Events)
        XCTAssertEqual(
            scheduler.start { xs.asMaybe().observe(on: scheduler).subscribe(on: scheduler) }.events,
            [.next(250, 1), .completed(250)]
        )
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.asMaybe().subscribe(on: scheduler) }.events,
            [.error(1250, TestError(1))]
        )
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 2210) { xs.asMaybe().observe(on: scheduler) }.events,
            []
        )
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(2200, 2210)])
    }

    // MARK: recovery

    func testRetryResubscribesUntilSuccessOrTheLastAttempt() {
        let scheduler = TestScheduler(initialClock: 0)
        let attempts = Recorder<Int>()
        let flaky = Maybe<Int>.deferred {
            attempts.append(scheduler.clock)
            return attempts.count < 3 ? .error(TestError(attempts.count)) : .just(42)
        }
        XCTAssertEqual(scheduler.start { flaky.retry(3) }.events, [.next(200, 42), .completed(200)])
        let xs = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { xs.asMaybe().retry(2) }.events,
            [.error(1220, TestError(1))]
        )
        XCTAssertEqual(xs.subscriptions, [Subscription(1200, 1210), Subscription(1210, 1220)])
        let ys = scheduler.createColdObservable([.error(500, TestError(1))] as Events)
        XCTAssertEqual(scheduler.start(created: 2100, subscribed: 2200, disposed: 2300) { ys.asMaybe().retry(2) }.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(2200, 2300)])
    }

    func testRetryWhenFollowsTheTriggers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        let res = scheduler.start {
            xs.asMaybe().retry(when: { errors in
                errors.flatMap { _ in Observable<Int>.timer(.seconds(5), scheduler: scheduler) }.take(1)
            })
        }
        XCTAssertEqual(res.events, [.completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(215, 225)])
        let ys = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.asMaybe().retry(when: { errors in errors.flatMap { error in Observable<Int>.error(error) } })
        }
        XCTAssertEqual(failed.events, [.error(1210, TestError(1))])
        let zs = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        let disposed = scheduler.start(created: 2100, subscribed: 2200, disposed: 2215) {
            zs.asMaybe().retry(when: { errors in errors.delay(.seconds(100), scheduler: scheduler) })
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(zs.subscriptions, [Subscription(2200, 2210)])
    }
}
