import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// A Sendable object for `subscribe(with:)`, released by the test to check the weak hold.
private final class Owner: Sendable {
    let log = Recorder<String>()
}

final class SingleOperatorTests: LeakCheckingTestCase {
    func testAsCompletableCompletesAtTheAnswerOrFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.error(10, TestError(1))] as [Recorded<Event<Int>>])
        let zs = scheduler.createColdObservable([.next(900, 1), .completed(900)])
        XCTAssertEqual(scheduler.start { xs.asSingle().asCompletable() }.events, [.completed(210)])
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.asSingle().asCompletable() }.events,
            [.error(1210, TestError(1))]
        )
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 2300) { zs.asSingle().asCompletable() }.events,
            []
        )
        XCTAssertEqual(zs.subscriptions, [Subscription(2200, 2300)])
    }

    func testAsMaybeKeepsTheAnswer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        XCTAssertEqual(scheduler.start { xs.asSingle().asMaybe() }.events, [.next(210, 1), .completed(210)])
    }

    func testFlatMapCompletableRunsTheWorkForTheAnswer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 5), .completed(10)])
        let work = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Never>>])
        let seen = Recorder<Int>()
        let res = scheduler.start {
            xs.asSingle().flatMapCompletable { value in
                seen.append(value)
                return work.asCompletable()
            }
        }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(seen.values, [5])
        XCTAssertEqual(work.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapCompletableFailsWithTheSourceTheSelectorOrTheWork() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 5), .completed(10)])
        let failing = scheduler.createColdObservable([.error(10, TestError(1))] as [Recorded<Event<Int>>])
        let work = scheduler.createColdObservable([.error(20, TestError(3))] as [Recorded<Event<Never>>])
        XCTAssertEqual(
            scheduler.start { failing.asSingle().flatMapCompletable { _ in .empty() } }.events,
            [.error(210, TestError(1))]
        )
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                xs.asSingle().flatMapCompletable { _ in throw TestError(2) }
            }.events,
            [.error(1210, TestError(2))]
        )
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
                xs.asSingle().flatMapCompletable { _ in work.asCompletable() }
            }.events,
            [.error(2230, TestError(3))]
        )
    }

    func testFlatMapCompletableDisposedDuringTheWorkDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 5), .completed(10)])
        let work = scheduler.createColdObservable([.completed(900)] as [Recorded<Event<Never>>])
        let res = scheduler.start { xs.asSingle().flatMapCompletable { _ in work.asCompletable() } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(work.subscriptions, [Subscription(210, 1000)])
    }

    func testDelaySubscriptionAsksLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.error(10, TestError(1))] as [Recorded<Event<Int>>])
        XCTAssertEqual(
            scheduler.start { xs.asSingle().delaySubscription(.seconds(5), scheduler: scheduler) }.events,
            [.next(215, 1), .completed(215)]
        )
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                ys.asSingle().delaySubscription(.seconds(5), scheduler: scheduler)
            }.events,
            [.error(1215, TestError(1))]
        )
        XCTAssertEqual(
            scheduler.start(created: 2100, subscribed: 2200, disposed: 2204) {
                xs.asSingle().delaySubscription(.seconds(5), scheduler: scheduler)
            }.events,
            []
        )
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 215)])
    }

    func testSubscribeWithAnObjectHoldsItWeakly() {
        var owner: Owner? = Owner()
        let log = owner?.log ?? Recorder<String>()
        Single.just(1).subscribe(
            with: owner ?? Owner(),
            onSuccess: { $0.log.append("success \($1)") },
            onDisposed: { $0.log.append("disposed") }
        )
        Single<Int>.error(TestError(1)).subscribe(with: owner ?? Owner(), onFailure: { owner, _ in owner.log.append("failure") })
        let subject = PublishSubject<Int>()
        let subscription = subject.asSingle().subscribe(with: owner ?? Owner(), onSuccess: { owner, _ in owner.log.append("late") })
        owner = nil
        subject.onNext(1)
        subject.onCompleted()
        subscription.dispose()
        XCTAssertEqual(log.values, ["success 1", "disposed", "failure"])
    }
}
