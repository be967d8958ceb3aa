import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift 6's documented edges, on the virtual clock: when time operators emit and end, how
/// errors and completions order across combining operators, sharing after a terminal event,
/// subjects after a terminal event, traits' grammar, and synchronous reentrancy. Every test
/// also checks that `Resources.total` returns to its start (`LeakCheckingTestCase`).
final class RxSwiftEdgeRulesTests: LeakCheckingTestCase {
    // MARK: time

    func testTimerWithPeriodTicksAtDueThenEveryPeriodAndStopsAtDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 260) { Observable<Int>.timer(.seconds(10), period: .seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(230, 1), .next(250, 2)])
        scheduler.advanceTo(400)
        XCTAssertEqual(res.events.count, 3)
    }

    func testIntervalStartsOnePeriodAfterSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 235) { Observable<Int>.interval(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(220, 1), .next(230, 2)])
    }

    func testTimerWithoutPeriodEmitsZeroAndCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 0), .completed(210)])
    }

    /// An element exactly one window after the last one sent opens a new window (RxSwift sends it
    /// when `now - lastSent >= dueTime`); on millisecond ticks the clock's `Date` rounded that
    /// to a fraction of a microsecond short, and `latest: false` dropped the element.
    func testThrottleSendsAnElementExactlyOneWindowLaterOnMillisecondTicks() {
        var dropped: [Int] = []
        for start in 201..<260 {
            let scheduler = TestScheduler(initialClock: 0, resolution: .milliseconds(1))
            let xs = scheduler.createHotObservable([.next(start, 1), .next(start + 10, 2), .completed(start + 50)])
            let res = scheduler.start { xs.throttle(.milliseconds(10), latest: false, scheduler: scheduler) }
            if res.events != [.next(start, 1), .next(start + 10, 2), .completed(start + 50)] { dropped.append(start) }
        }
        XCTAssertEqual(dropped, [])
    }

    func testThrottleOnAHistoricalSchedulerSendsAnElementExactlyOneWindowLater() {
        let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
        let subject = PublishSubject<Int>()
        let received = Recorder<Int>()
        let subscription = subject.throttle(.milliseconds(10), latest: false, scheduler: scheduler)
            .subscribe(onNext: { received.append($0) })
        for (millisecond, value) in [(210, 1), (220, 2), (225, 3), (230, 4)] {
            scheduler.scheduleAbsolute(Date(timeIntervalSince1970: Double(millisecond) / 1_000)) { subject.onNext(value) }
        }
        scheduler.start()
        XCTAssertEqual(received.values, [1, 2, 4])
        subscription.dispose()
    }

    func testDelayDoesNotDelayTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = scheduler.start { xs.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(220, TestError(1))])
    }

    func testDelayShiftsTheCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let res = scheduler.start { xs.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDelaySubscriptionSubscribesLate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 250)])
    }

    func testDelaySubscriptionDisposedBeforeDueNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start(disposed: 220) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testBufferEmitsEmptyArraysOnTimeAndTheRestAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .next(206, 2), .next(207, 3), .next(235, 4), .completed(245)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(10), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(207, [1, 2, 3]), .next(217, []), .next(227, []), .next(237, [4]), .next(245, []), .completed(245),
        ])
    }

    func testWindowByCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .next(206, 2), .next(207, 3), .completed(240)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(100), count: 2, scheduler: scheduler).enumerated().flatMap { index, window in
                window.map { "\(index):\($0)" }
            }
        }
        XCTAssertEqual(res.events, [.next(205, "0:1"), .next(206, "0:2"), .next(207, "1:3"), .completed(240)])
    }

    func testTakeForCompletesAtTheDuration() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testSkipForOpensAtTheDuration() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(240)])
        let res = scheduler.start { xs.skip(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 2), .completed(240)])
    }

    func testTimeoutSwitchesToOtherAndDropsTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .next(240, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 10), .completed(10)])
        let res = scheduler.start { xs.timeout(.seconds(20), other: ys, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(230, 10), .completed(235)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(225, 235)])
    }

    func testTimeoutWithoutOtherErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .next(240, 2)])
        let res = scheduler.start { xs.timeout(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(205, 1), .error(225, ReactiveError.timeout)])
    }

    func testDebounceEmitsTheWaitingElementAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(245)])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(225, 2), .next(245, 3), .completed(245)])
    }

    func testSampleWithDefaultValueAndSamplerCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let ticks = scheduler.createHotObservable([.next(220, "a"), .next(230, "b"), .completed(240)])
        let res = scheduler.start { xs.sample(ticks, defaultValue: 0) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(230, 0), .next(240, 0)])
    }

    // MARK: ordering

    func testRetryCountsAttempts() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError(1))])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(215, 1), .next(225, 1), .error(230, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])
    }

    func testCombineLatestCompletesWhenAllComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.next(215, 2), .next(225, 3), .completed(250)])
        let res = scheduler.start { Observable.combineLatest(a, b) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(215, 3), .next(225, 4), .completed(250)])
    }

    func testCombineLatestCompletesWhenASourceCompletesEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let b = scheduler.createHotObservable([.next(215, 2), .next(225, 3), .completed(250)])
        let res = scheduler.start { Observable.combineLatest(a, b) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(225)])
    }

    func testWithLatestFromErrorOfSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
        let b = scheduler.createHotObservable([.next(205, "x"), .error(220, TestError(2))])
        let res = scheduler.start { a.withLatestFrom(b) }
        XCTAssertEqual(res.events, [.next(210, "x"), .error(220, TestError(2))])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
    }

    func testAmbPicksFirstAndDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(220, 1), .completed(250)])
        let b = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let res = scheduler.start { a.amb(b) }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(300)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 210)])
    }

    func testFlatMapLatestWaitsForInnerAfterOuterCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let outer = scheduler.createHotObservable([.next(210, 0), .completed(220)])
        let res = scheduler.start { outer.flatMapLatest { _ in inner } }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(260)])
    }

    func testFlatMapFirstDropsWhileBusy() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let outer = scheduler.createHotObservable([.next(210, 0), .next(215, 0), .next(235, 0), .completed(300)])
        let res = scheduler.start { outer.flatMapFirst { _ in inner } }
        XCTAssertEqual(res.events, [.next(220, 1), .next(245, 1), .completed(300)])
    }

    func testMergeMaxConcurrentQueuesAndCompletesLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let x = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let y = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let outer = scheduler.createHotObservable([.next(210, x.asObservable()), .next(212, y.asObservable()), .completed(215)])
        let res = scheduler.start { outer.merge(maxConcurrent: 1) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(240, 2), .completed(250)])
    }

    func testConcatMapKeepsOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 1), .next(212, 2), .completed(215)])
        let res = scheduler.start {
            outer.concatMap { value in Observable<Int>.timer(.seconds(10), scheduler: scheduler).map { _ in value } }
        }
        XCTAssertEqual(res.events, [.next(220, 1), .next(230, 2), .completed(230)])
    }

    func testSwitchLatestErrorOfInnerEndsAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let x = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(3))] as [Recorded<Event<Int>>])
        let outer = scheduler.createHotObservable([.next(210, x.asObservable()), .completed(300)])
        let res = scheduler.start { outer.switchLatest() }
        XCTAssertEqual(res.events, [.next(220, 1), .error(230, TestError(3))])
        XCTAssertEqual(outer.subscriptions, [Subscription(200, 230)])
    }

    func testCatchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = scheduler.start { xs.catchAndReturn(9) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 9), .completed(220)])
    }

    // MARK: sharing

    func testShareWhileConnectedResubscribesAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.share(replay: 1, scope: .whileConnected)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        _ = scheduler.scheduleAt(200) { shared.subscribe(first).disposed(by: bag) }
        _ = scheduler.scheduleAt(250) { shared.subscribe(second).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(260, 1), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(250, 270)])
    }

    func testShareForeverReplaysAndCompletesAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.share(replay: 1, scope: .forever)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        _ = scheduler.scheduleAt(200) { shared.subscribe(first).disposed(by: bag) }
        _ = scheduler.scheduleAt(250) { shared.subscribe(second).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(250, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testShareForeverAfterDisposeReconnectsWithReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
        let shared = xs.share(replay: 1, scope: .forever)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let sub = SerialDisposable()
        let later = SerialDisposable()
        _ = scheduler.scheduleAt(200) { sub.disposable = shared.subscribe(first) }
        _ = scheduler.scheduleAt(230) { sub.dispose() }
        _ = scheduler.scheduleAt(250) { later.disposable = shared.subscribe(second) }
        _ = scheduler.scheduleAt(300) { later.dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(second.events, [.next(250, 2), .next(260, 1), .next(270, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(250, 300)])
    }

    func testPublishRefCountReconnectsWithFreshSubjectAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.publish().refCount()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        _ = scheduler.scheduleAt(200) { shared.subscribe(first).disposed(by: bag) }
        _ = scheduler.scheduleAt(250) { shared.subscribe(second).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(260, 1), .completed(270)])
    }

    func testMulticastWithOneSubjectStaysCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let connectable = xs.multicast(PublishSubject<Int>())
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        _ = scheduler.scheduleAt(200) { connectable.subscribe(first).disposed(by: bag); connectable.connect().disposed(by: bag) }
        _ = scheduler.scheduleAt(250) { connectable.subscribe(second).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.completed(250)])
    }

    func testReplayConnectionDisposeStopsDeliveryAndNextConnectUsesFreshSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3)])
        let connectable = xs.replay(1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let connection = SerialDisposable()
        let bag = DisposeBag()
        _ = scheduler.scheduleAt(200) { connectable.subscribe(first).disposed(by: bag); connection.disposable = connectable.connect() }
        _ = scheduler.scheduleAt(225) { connection.dispose() }
        _ = scheduler.scheduleAt(250) { connectable.subscribe(second).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(second.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    // MARK: subjects

    func testSubjectsAfterTerminalEvents() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let publish = PublishSubject<Int>()
        publish.onNext(1)
        publish.onCompleted()
        let publishObserver = scheduler.createObserver(Int.self)
        _ = publish.subscribe(publishObserver)
        XCTAssertEqual(publishObserver.events, [.completed(0)])

        let behavior = BehaviorSubject(value: 1)
        behavior.onNext(2)
        behavior.onCompleted()
        XCTAssertEqual(try behavior.value(), 2)
        let behaviorObserver = scheduler.createObserver(Int.self)
        _ = behavior.subscribe(behaviorObserver)
        XCTAssertEqual(behaviorObserver.events, [.completed(0)])

        let failed = BehaviorSubject(value: 1)
        failed.onError(TestError(4))
        XCTAssertThrowsError(try failed.value()) { XCTAssertEqual($0 as? TestError, TestError(4)) }

        let replay = ReplaySubject<Int>.create(bufferSize: 2)
        replay.onNext(1); replay.onNext(2); replay.onNext(3)
        replay.onError(TestError(5))
        let replayObserver = scheduler.createObserver(Int.self)
        _ = replay.subscribe(replayObserver)
        XCTAssertEqual(replayObserver.events, [.next(0, 2), .next(0, 3), .error(0, TestError(5))])

        let async = AsyncSubject<Int>()
        async.onNext(1); async.onNext(2); async.onCompleted()
        let asyncObserver = scheduler.createObserver(Int.self)
        _ = async.subscribe(asyncObserver)
        XCTAssertEqual(asyncObserver.events, [.next(0, 2), .completed(0)])
    }

    func testBehaviorRelayReentrantAccept() {
        let relay = BehaviorRelay(value: 0)
        let seen = Recorder<Int>()
        let d = relay.subscribe(onNext: { value in
            seen.append(value)
            if value == 1 { relay.accept(2) }
        })
        relay.accept(1)
        XCTAssertEqual(seen.values, [0, 1, 2])
        XCTAssertEqual(relay.value, 2)
        d.dispose()
    }

    // MARK: traits

    func testAsSingleErrorsAtTheSecondElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.asSingle().asObservable() }
        XCTAssertEqual(res.events, [.error(220, ReactiveError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAsSingleOfEmptyErrorsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(230)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asSingle().asObservable() }
        XCTAssertEqual(res.events, [.error(230, ReactiveError.noElements)])
    }

    func testSingleCreateIgnoresEverythingAfterSuccess() {
        let events = Recorder<String>()
        let single = Single<Int>.create { observer in
            observer(.success(1))
            observer(.success(2))
            observer(.failure(TestError(1)))
            return Disposables.create()
        }
        _ = single.subscribe(onSuccess: { events.append("s\($0)") }, onFailure: { _ in events.append("f") })
        XCTAssertEqual(events.values, ["s1"])
    }

    func testAndThenSkipsTheNextOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start {
            Completable.error(TestError(7)).andThen(ys.asObservable())
        }
        XCTAssertEqual(res.events, [.error(200, TestError(7))])
        XCTAssertEqual(ys.subscriptions, [])
    }

    // MARK: reentrancy

    func testCreateEmittingAfterDisposeDeliversNothing() {
        let recorder = Recorder<Int>()
        let saved = Recorder<AnyObserver<Int>>()
        let observable = Observable<Int>.create { observer in
            saved.append(observer)
            return Disposables.create()
        }
        let d = observable.subscribe(onNext: { recorder.append($0) })
        saved.values.first?.onNext(1)
        d.dispose()
        saved.values.first?.onNext(2)
        XCTAssertEqual(recorder.values, [1])
    }

    func testTakeUntilTriggerFiringAtSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.take(until: Observable.just(())) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testShareReplaySubscriberJoiningFromInsideAnotherObserver() {
        let source = PublishSubject<Int>()
        let shared = source.share(replay: 1)
        let second = Recorder<Int>()
        let bag = DisposeBag()
        let first = Recorder<Int>()
        shared.subscribe(onNext: { value in
            first.append(value)
            if value == 1 {
                shared.subscribe(onNext: { second.append($0) }).disposed(by: bag)
            }
        }).disposed(by: bag)
        source.onNext(1)
        source.onNext(2)
        XCTAssertEqual(first.values, [1, 2])
        XCTAssertEqual(second.values, [1, 2])
        bag.disposeAll()
    }

    func testBehaviorSubjectSubscriberJoiningFromInsideAnotherObserverSeesEachValueOnce() {
        let subject = BehaviorSubject(value: 0)
        let second = Recorder<Int>()
        let bag = DisposeBag()
        subject.subscribe(onNext: { value in
            if value == 1 {
                subject.onNext(2)
                subject.subscribe(onNext: { second.append($0) }).disposed(by: bag)
            }
        }).disposed(by: bag)
        subject.onNext(1)
        subject.onNext(3)
        XCTAssertEqual(second.values, [2, 3])
        bag.disposeAll()
    }

    func testPublishRefCountSubscriberLeavingAndJoiningInsideDelivery() {
        let source = PublishSubject<Int>()
        let shared = source.publish().refCount()
        let got = Recorder<Int>()
        let a = SerialDisposable()
        let b = SerialDisposable()
        a.disposable = shared.subscribe(onNext: { value in
            got.append(value)
            a.dispose()
            b.disposable = shared.subscribe(onNext: { got.append($0 * 10) })
        })
        source.onNext(1)
        source.onNext(2)
        XCTAssertEqual(got.values, [1, 20])
        b.dispose()
    }

    /// RxSwift's typed `zip` completes when every source has (its `ZipSink.done`); only the
    /// collection form also completes at an element that can never be paired.
    func testTypedZipWaitsForEverySourceWhileCollectionZipEndsAtAnUnpairableElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let b = scheduler.createHotObservable([.next(230, 1), .completed(300)])
        let typed = scheduler.start { Observable.zip(a, b) { $0 + $1 } }
        XCTAssertEqual(typed.events, [.completed(300)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let c = scheduler2.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let d = scheduler2.createHotObservable([.next(230, 1), .completed(300)])
        let collection = scheduler2.start { Observable.zip([c.asObservable(), d.asObservable()]) }
        XCTAssertEqual(collection.events, [.completed(230)])
    }
}
