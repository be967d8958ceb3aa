import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// A Sendable object for `subscribe(with:)`, released by the test to check the weak hold.
private final class Owner: Sendable {
    let log = Recorder<String>()
}

final class CompletableOperatorTests: LeakCheckingTestCase {
    private typealias Events = [Recorded<Event<Never>>]

    // MARK: subscribe

    func testSubscribeWithAnEventClosureGetsTheOutcomeOnce() {
        let log = Recorder<String>()
        Completable.empty().subscribe { event in
            if case .completed = event { log.append("completed") }
        }
        Completable.error(TestError(1)).subscribe { event in
            if case .error(let error) = event { log.append("error \((error as? TestError)?.code ?? -1)") }
        }
        Completable.create { observer in
            observer(.completed)
            observer(.error(TestError(2)))
            return Disposables.create()
        }
        .subscribe { event in log.append("\(event)") }
        XCTAssertEqual(log.values, ["completed", "error 1", "completed"])
    }

    func testSubscribeWithAnEventClosureSeesNothingAfterDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(300)] as Events)
        let log = Recorder<Int>()
        let subscription = xs.asCompletable().subscribe { _ in log.append(scheduler.clock) }
        scheduler.scheduleAt(250) { subscription.dispose() }
        scheduler.start()
        XCTAssertEqual(log.values, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 250)])
    }

    func testSubscribeWithAnObjectHoldsItWeakly() {
        var owner: Owner? = Owner()
        let log = owner?.log ?? Recorder<String>()
        Completable.empty().subscribe(
            with: owner ?? Owner(),
            onCompleted: { $0.log.append("completed") },
            onDisposed: { $0.log.append("disposed") }
        )
        let subject = PublishSubject<Never>()
        let subscription = subject.asCompletable().subscribe(
            with: owner ?? Owner(),
            onError: { owner, _ in owner.log.append("error") },
            onDisposed: { $0.log.append("late disposed") }
        )
        owner = nil
        subject.onError(TestError(1))
        subscription.dispose()
        XCTAssertEqual(log.values, ["completed", "disposed"])
    }

    // MARK: do

    func testDoRunsItsCallbacksInOrderAroundCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as Events)
        let log = Recorder<String>()
        let res = scheduler.start {
            xs.asCompletable().do(
                onError: { _ in log.append("onError") },
                onCompleted: { log.append("onCompleted \(scheduler.clock)") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe \(scheduler.clock)") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
        }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(log.values, [
            "onSubscribe 200", "onSubscribed", "onCompleted 250", "afterCompleted", "onDispose",
        ])
    }

    func testDoSeesTheErrorAndAThrowingCallbackReplacesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, TestError(1))] as Events)
        let log = Recorder<String>()
        let res = scheduler.start {
            xs.asCompletable().do(
                onError: { error in
                    log.append("onError \((error as? TestError)?.code ?? -1)")
                    throw TestError(2)
                },
                afterError: { _ in log.append("afterError") }
            )
        }
        XCTAssertEqual(res.events, [.error(250, TestError(2))])
        XCTAssertEqual(log.values, ["onError 1"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDoReportsDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([] as Events)
        let log = Recorder<Int>()
        let res = scheduler.start { xs.asCompletable().do(onDispose: { log.append(scheduler.clock) }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(log.values, [1000])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    // MARK: time

    func testDelayShiftsTheCompletionButNotAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let completes = scheduler.createHotObservable([.completed(250)] as Events)
        let completed = scheduler.start { completes.asCompletable().delay(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(completed.events, [.completed(270)])
        let fails = scheduler.createHotObservable([.error(1250, TestError(1))] as Events)
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            fails.asCompletable().delay(.seconds(20), scheduler: scheduler)
        }
        XCTAssertEqual(failed.events, [.error(1250, TestError(1))])
        let never = scheduler.createHotObservable([.completed(2990)] as Events)
        let disposed = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            never.asCompletable().delay(.seconds(20), scheduler: scheduler)
        }
        XCTAssertEqual(disposed.events, [], "disposed before the delayed completion is due")
        XCTAssertEqual(never.subscriptions, [Subscription(2200, 2990)])
    }

    func testDelaySubscriptionStartsTheWorkLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.completed(10)] as Events)
        let ys = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        let completed = scheduler.start { xs.asCompletable().delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(completed.events, [.completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 240)])
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.asCompletable().delaySubscription(.seconds(30), scheduler: scheduler)
        }
        XCTAssertEqual(failed.events, [.error(1240, TestError(1))])
        let cancelled = scheduler.start(created: 2100, subscribed: 2200, disposed: 2220) {
            xs.asCompletable().delaySubscription(.seconds(30), scheduler: scheduler)
        }
        XCTAssertEqual(cancelled.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 240)], "disposed before it was due: never subscribed")
    }

    func testTimeoutWithOtherSwitchesOnlyWhenLate() {
        let scheduler = TestScheduler(initialClock: 0)
        let late = scheduler.createHotObservable([.completed(300)] as Events)
        let other = scheduler.createColdObservable([.completed(5)] as Events)
        let res = scheduler.start { late.asCompletable().timeout(.seconds(30), other: other.asCompletable(), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(235)])
        XCTAssertEqual(late.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(other.subscriptions, [Subscription(230, 235)])

        let early = scheduler.createHotObservable([.error(1220, TestError(1))] as Events)
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            early.asCompletable().timeout(.seconds(30), other: other.asCompletable(), scheduler: scheduler)
        }
        XCTAssertEqual(failed.events, [.error(1220, TestError(1))])
        let stuck = scheduler.createColdObservable([] as Events)
        let switched = scheduler.start(created: 2100, subscribed: 2200, disposed: 2300) {
            Completable.never().timeout(.seconds(30), other: stuck.asCompletable(), scheduler: scheduler)
        }
        XCTAssertEqual(switched.events, [])
        XCTAssertEqual(stuck.subscriptions, [Subscription(2230, 2300)])
    }

    func testObserveOnAndSubscribeOnKeepTheTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as Events)
        let observed = scheduler.start { xs.asCompletable().observe(on: scheduler) }
        XCTAssertEqual(observed.events, [.completed(250)])
        let ys = scheduler.createHotObservable([.error(1250, TestError(1))] as Events)
        let subscribed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.asCompletable().subscribe(on: scheduler)
        }
        XCTAssertEqual(subscribed.events, [.error(1250, TestError(1))])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
        let zs = scheduler.createHotObservable([] as Events)
        let disposed = scheduler.start(created: 2100, subscribed: 2200, disposed: 2300) {
            zs.asCompletable().subscribe(on: scheduler).observe(on: scheduler)
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(zs.subscriptions, [Subscription(2200, 2300)])
    }

    // MARK: recovery

    func testRetryWhenResubscribesOnEachTriggerAndCompletesWhenTheTriggerEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        let res = scheduler.start { xs.asCompletable().retry(when: { errors in errors.take(2) }) }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])
    }

    func testRetryWhenFailsWithTheTriggersErrorAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        let res = scheduler.start {
            xs.asCompletable().retry(when: { errors in
                errors.flatMap { _ in Observable<Int>.error(TestError(9)) }
            })
        }
        XCTAssertEqual(res.events, [.error(210, TestError(9))])
        let ys = scheduler.createColdObservable([.error(500, TestError(1))] as Events)
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.asCompletable().retry(when: { errors in errors })
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1700), Subscription(1700, 2000)])
    }

    func testDeferredBuildsTheWorkPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let calls = Recorder<Int>()
        let deferred = Completable.deferred {
            calls.append(scheduler.clock)
            if calls.count == 2 { throw TestError(3) }
            return .empty()
        }
        XCTAssertEqual(scheduler.start { deferred }.events, [.completed(200)])
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) { deferred }.events,
            [.error(1200, TestError(3))]
        )
        XCTAssertEqual(calls.values, [200, 1200])
    }

    // MARK: concat, zip, merge

    func testConcatRunsOneAfterAnother() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.completed(10)] as Events)
        let b = scheduler.createColdObservable([.completed(20)] as Events)
        let c = scheduler.createColdObservable([.completed(30)] as Events)
        let res = scheduler.start { Completable.concat(a.asCompletable(), b.asCompletable()).concat(c.asCompletable()) }
        XCTAssertEqual(res.events, [.completed(260)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(b.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(c.subscriptions, [Subscription(230, 260)])
        let lazy = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Completable.concat([a, b].lazy.map { $0.asCompletable() })
        }
        XCTAssertEqual(lazy.events, [.completed(1230)])
    }

    func testConcatStopsAtAFailureAndOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        let b = scheduler.createColdObservable([.completed(20)] as Events)
        let failed = scheduler.start { Completable.concat([a.asCompletable(), b.asCompletable()]) }
        XCTAssertEqual(failed.events, [.error(210, TestError(1))])
        XCTAssertEqual(b.subscriptions, [])
        let long = scheduler.createColdObservable([.completed(900)] as Events)
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1500) {
            Completable.concat(long.asCompletable(), b.asCompletable())
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(long.subscriptions, [Subscription(1200, 1500)])
        XCTAssertEqual(b.subscriptions, [])
    }

    func testZipAndMergeCompleteWhenAllHaveCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.completed(10)] as Events)
        let b = scheduler.createColdObservable([.completed(30)] as Events)
        let zipped = scheduler.start { Completable.zip(a.asCompletable(), b.asCompletable()) }
        XCTAssertEqual(zipped.events, [.completed(230)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 230)])
        let merged = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Completable.merge([a.asCompletable(), b.asCompletable()])
        }
        XCTAssertEqual(merged.events, [.completed(1230)])
        let variadic = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            Completable.merge(a.asCompletable(), b.asCompletable())
        }
        XCTAssertEqual(variadic.events, [.completed(2230)])
        let ofCollection = scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) {
            Completable.zip(ArraySlice([a.asCompletable(), b.asCompletable()]))
        }
        XCTAssertEqual(ofCollection.events, [.completed(3230)])
        XCTAssertEqual(scheduler.start(created: 4100, subscribed: 4200, disposed: 5000) { Completable.zip([]) }.events,
                       [.completed(4200)])
    }

    func testZipAndMergeFailAtTheFirstFailureAndDisposeTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.error(10, TestError(1))] as Events)
        let b = scheduler.createColdObservable([.completed(30)] as Events)
        let zipped = scheduler.start { Completable.zip([a.asCompletable(), b.asCompletable()]) }
        XCTAssertEqual(zipped.events, [.error(210, TestError(1))])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 210)])
        let merged = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Completable.merge(b.asCompletable(), a.asCompletable())
        }
        XCTAssertEqual(merged.events, [.error(1210, TestError(1))])
        let never = scheduler.createColdObservable([] as Events)
        let disposed = scheduler.start(created: 2100, subscribed: 2200, disposed: 2300) {
            Completable.zip(never.asCompletable(), Completable.never())
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(2200, 2300)])
    }
}
