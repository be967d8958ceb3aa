import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class CompletableTests: LeakCheckingTestCase {
    func testCreateCompletesOrFailsAtTheAnswerTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let completed = scheduler.start {
            Completable.create { observer in scheduler.scheduleRelative(.seconds(5)) { observer(.completed) } }
        }
        XCTAssertEqual(completed.events, [.completed(205)])
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            Completable.create { observer in scheduler.scheduleRelative(.seconds(5)) { observer(.error(TestError(1))) } }
        }
        XCTAssertEqual(failed.events, [.error(1205, TestError(1))])
    }

    func testIgnoreElementsMakesACompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAndThenRunsTheNextAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        // `asCompletable()` exists only where `Element == Never`, as in RxSwift.
        let first: TestableObservable<Never> = scheduler.createColdObservable([.completed(10)])
        let second: TestableObservable<Never> = scheduler.createColdObservable([.completed(20)])
        let answer = scheduler.createColdObservable([.next(5, "done"), .completed(5)])
        let chained = scheduler.start { first.asCompletable().andThen(second.asCompletable()) }
        XCTAssertEqual(chained.events, [.completed(230)])
        XCTAssertEqual(second.subscriptions, [Subscription(210, 230)])
        let single = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            first.asCompletable().andThen(answer.asSingle())
        }
        XCTAssertEqual(single.events, [.next(1215, "done"), .completed(1215)])
        XCTAssertEqual(answer.subscriptions, [Subscription(1210, 1215)])
    }

    func testAndThenSkipsTheNextAfterAFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let first: TestableObservable<Never> = scheduler.createColdObservable([.error(10, TestError(1))])
        let second: TestableObservable<Never> = scheduler.createColdObservable([.completed(20)])
        let res = scheduler.start { first.asCompletable().andThen(second.asCompletable()) }
        XCTAssertEqual(res.events, [.error(210, TestError(1))])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(second.subscriptions, [])
    }

    func testCatchRetryAndTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing: TestableObservable<Never> = scheduler.createColdObservable([.error(10, TestError(1))])
        let caught = scheduler.start { failing.asCompletable().retry(2).catch { _ in .empty() } }
        XCTAssertEqual(caught.events, [.completed(220)])
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 210), Subscription(210, 220)])
        let timedOut = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Completable.never().timeout(.seconds(30), scheduler: scheduler)
        }
        XCTAssertEqual(timedOut.events, [.error(1230, ReactiveError.timeout)])
    }

    func testSubscribeReportsCompletionThenDisposal() {
        let log = Recorder<String>()
        Completable.empty().subscribe(onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        Completable.error(TestError(1)).subscribe(onError: { _ in log.append("error") })
        XCTAssertEqual(log.values, ["completed", "disposed", "error"])
    }

    func testDisposedAtThousandReleasesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
