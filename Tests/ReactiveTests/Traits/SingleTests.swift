import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class SingleTests: LeakCheckingTestCase {
    private static func answer(
        _ result: SingleEvent<Int>, after seconds: Int64, on scheduler: TestScheduler, disposed: Recorder<Int>
    ) -> Single<Int> {
        Single<Int>.create { observer in
            let work = scheduler.scheduleRelative(.seconds(seconds)) { observer(result) }
            return Disposables.create {
                work.dispose()
                disposed.append(scheduler.clock)
            }
        }
    }

    func testCreateSucceedsAtTheAnswerTickAndReleasesItsResources() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposed = Recorder<Int>()
        let res = scheduler.start { Self.answer(.success(42), after: 10, on: scheduler, disposed: disposed) }
        XCTAssertEqual(res.events, [.next(210, 42), .completed(210)])
        XCTAssertEqual(disposed.values, [210])
    }

    func testCreateFailsAtTheAnswerTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposed = Recorder<Int>()
        let res = scheduler.start { Self.answer(.failure(TestError(1)), after: 10, on: scheduler, disposed: disposed) }
        XCTAssertEqual(res.events, [.error(210, TestError(1))])
        XCTAssertEqual(disposed.values, [210])
    }

    func testCreateDisposedBeforeTheAnswerCancelsTheWork() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposed = Recorder<Int>()
        let res = scheduler.start { Self.answer(.success(1), after: 900, on: scheduler, disposed: disposed) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(disposed.values, [1000])
    }

    func testCreateKeepsOnlyTheFirstAnswer() {
        let results = Recorder<String>()
        Single<Int>.create { observer in
            observer(.success(1))
            observer(.failure(TestError(1)))
            observer(.success(2))
            return Disposables.create()
        }
        .subscribe(
            onSuccess: { results.append("success \($0)") },
            onFailure: { _ in results.append("failure") },
            onDisposed: { results.append("disposed") }
        )
        XCTAssertEqual(results.values, ["success 1", "disposed"])
    }

    func testJustErrorNeverAndDeferred() {
        let scheduler = TestScheduler(initialClock: 0)
        let calls = Recorder<Int>()
        XCTAssertEqual(scheduler.start { Single.just(1) }.events, [.next(200, 1), .completed(200)])
        XCTAssertEqual(
            scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) { Single<Int>.error(TestError(1)) }.events,
            [.error(1200, TestError(1))]
        )
        XCTAssertEqual(scheduler.start(created: 1400, subscribed: 1500, disposed: 1600) { Single<Int>.never() }.events, [])
        let deferred = Single<Int>.deferred {
            calls.append(scheduler.clock)
            if calls.count > 1 { throw TestError(2) }
            return .just(7)
        }
        XCTAssertEqual(calls.values, [])
        XCTAssertEqual(
            scheduler.start(created: 1700, subscribed: 1800, disposed: 1900) { deferred }.events,
            [.next(1800, 7), .completed(1800)]
        )
        XCTAssertEqual(
            scheduler.start(created: 2000, subscribed: 2100, disposed: 2200) { deferred }.events,
            [.error(2100, TestError(2))]
        )
        XCTAssertEqual(calls.values, [1800, 2100])
    }

    func testMapAndFlatMapAndAThrowingMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let ys = scheduler.createColdObservable([.next(5, "b"), .completed(5)])
        let chained = scheduler.start { xs.asSingle().map { $0 * 10 }.flatMap { value in ys.asSingle().map { "\(value)\($0)" } } }
        XCTAssertEqual(chained.events, [.next(215, "20b"), .completed(215)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 215)])
        let failing = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.asSingle().map { _ -> Int in throw TestError(3) }
        }
        XCTAssertEqual(failing.events, [.error(1210, TestError(3))])
    }

    func testCatchRetryAndCatchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.error(10, TestError(1))] as [Recorded<Event<Int>>])
        let fallback = scheduler.createColdObservable([.next(5, 9), .completed(5)])
        let caught = scheduler.start { failing.asSingle().catch { _ in fallback.asSingle() } }
        XCTAssertEqual(caught.events, [.next(215, 9), .completed(215)])
        XCTAssertEqual(fallback.subscriptions, [Subscription(210, 215)])

        let retried = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            failing.asSingle().retry(2).catchAndReturn(-1)
        }
        XCTAssertEqual(retried.events, [.next(1220, -1), .completed(1220)])
        XCTAssertEqual(failing.subscriptions.suffix(2), [Subscription(1200, 1210), Subscription(1210, 1220)])
    }

    func testZipWaitsForBothAnswers() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let b = scheduler.createColdObservable([.next(20, "x"), .completed(20)])
        let res = scheduler.start { Single.zip(a.asSingle(), b.asSingle()) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(220, "1x"), .completed(220)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 220)])
    }

    func testZipOfTuplesAndOfAnArray() {
        let pairs = Recorder<String>()
        Single.zip(Single.just(1), Single.just("a")).subscribe(onSuccess: { pairs.append("\($0.0)\($0.1)") })
        XCTAssertEqual(pairs.values, ["1a"])

        let arrays = Recorder<[Int]>()
        Single.zip([Single.just(1), Single.just(2), Single.just(3)]).subscribe(onSuccess: { arrays.append($0) })
        Single.zip([Single<Int>]()).subscribe(onSuccess: { arrays.append($0) })
        XCTAssertEqual(arrays.values, [[1, 2, 3], []])
    }

    func testZipFailsWithTheFirstFailureAndDisposesTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.error(10, TestError(1))] as [Recorded<Event<Int>>])
        let b = scheduler.createColdObservable([.next(20, "x"), .completed(20)])
        let res = scheduler.start { Single.zip(a.asSingle(), b.asSingle()) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.error(210, TestError(1))])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 210)])
    }

    func testZipThrowingResultSelectorFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single.zip(Single.just(1), Single.just(2)) { _, _ -> Int in throw TestError(5) }
        }
        XCTAssertEqual(res.events, [.error(200, TestError(5))])
    }

    func testZipDisposedAtThousandDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let b = scheduler.createColdObservable([] as [Recorded<Event<Int>>])
        let res = scheduler.start { Single.zip(a.asSingle(), b.asSingle()) { $0 + $1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 1000)])
    }

    /// `Single.timeout` has its own sink: the answer cancels the timer (no error at the timer's
    /// tick), a failure passes through, a tie with a cold source goes to the timer (scheduled
    /// first), and disposal before either ends the source's subscription with nothing delivered.
    func testSingleTimeoutRacesTheAnswerOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let early = scheduler.createColdObservable([.next(5, 1), .completed(5)])
        let answered = scheduler.start { early.asSingle().timeout(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(answered.events, [.next(205, 1), .completed(205)])
        XCTAssertEqual(early.subscriptions, [Subscription(200, 205)])

        let failing = scheduler.createColdObservable([.error(7, TestError(3))] as [Recorded<Event<Int>>])
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            failing.asSingle().timeout(.seconds(10), scheduler: scheduler)
        }
        XCTAssertEqual(failed.events, [.error(1207, TestError(3))])

        let tie = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let tied = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            tie.asSingle().timeout(.seconds(10), scheduler: scheduler)
        }
        XCTAssertEqual(tied.events, [.error(2210, ReactiveError.timeout)])
        XCTAssertEqual(tie.subscriptions, [Subscription(2200, 2210)])

        let slow = scheduler.createColdObservable([.next(50, 3), .completed(50)])
        let disposed = scheduler.start(created: 3100, subscribed: 3200, disposed: 3205) {
            slow.asSingle().timeout(.seconds(10), scheduler: scheduler)
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(slow.subscriptions, [Subscription(3200, 3205)])
    }

    func testTimeoutAndTimeoutWithOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let other = scheduler.createColdObservable([.next(5, 2), .completed(5)])
        let failed = scheduler.start { slow.asSingle().timeout(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(failed.events, [.error(220, ReactiveError.timeout)])
        let switched = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            slow.asSingle().timeout(.seconds(20), other: other.asSingle(), scheduler: scheduler)
        }
        XCTAssertEqual(switched.events, [.next(1225, 2), .completed(1225)])
        XCTAssertEqual(slow.subscriptions, [Subscription(200, 220), Subscription(1200, 1220)])
    }

    func testDelayShiftsTheSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(3).delay(.seconds(15), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(215, 3), .completed(215)])
    }

    func testObserveOnAndSubscribeOnTheTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let observed = scheduler.start { xs.asSingle().observe(on: scheduler) }
        XCTAssertEqual(observed.events, [.next(210, 1), .completed(210)])
        let subscribed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.asSingle().subscribe(on: scheduler)
        }
        XCTAssertEqual(subscribed.events, [.next(1210, 1), .completed(1210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(1200, 1210)])
    }

    func testFilterAndCompactMapGiveAMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let kept = scheduler.start { Single.just(4).filter { $0 > 3 }.asObservable() }
        XCTAssertEqual(kept.events, [.next(200, 4), .completed(200)])
        let dropped = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            Single.just(4).compactMap { $0 > 5 ? $0 : nil }.asObservable()
        }
        XCTAssertEqual(dropped.events, [.completed(1200)])
        let failed = scheduler.start(created: 1400, subscribed: 1500, disposed: 1600) {
            Single.just(4).filter { _ in throw TestError(6) }.asObservable()
        }
        XCTAssertEqual(failed.events, [.error(1500, TestError(6))])
    }

    func testFlatMapMaybeAndAThrowingSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let empty = scheduler.start { xs.asSingle().flatMapMaybe { _ in Maybe<Int>.empty() } }
        XCTAssertEqual(empty.events, [.completed(210)])
        let failing = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.asSingle().flatMap { _ -> Single<Int> in throw TestError(8) }
        }
        XCTAssertEqual(failing.events, [.error(1210, TestError(8))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(1200, 1210)])
    }
}
