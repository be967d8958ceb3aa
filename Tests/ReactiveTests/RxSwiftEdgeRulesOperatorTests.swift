import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// More of RxSwift 6's documented edges, on the virtual clock: where an operator ends, what it
/// subscribes and when, and what a late subscriber gets. Each test pins RxSwift's behaviour.
final class RxSwiftEdgeRulesOperatorTests: LeakCheckingTestCase {
    func testHotEventAtTheDisposeTickIsRecorded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(1000, 1)])
        let res = scheduler.start { xs.asObservable() }
        XCTAssertEqual(res.events, [.next(1000, 1)])
    }

    func testColdEventAtTheDisposeTickIsNotRecorded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(800, 1)])
        let res = scheduler.start { xs.asObservable() }
        XCTAssertEqual(res.events, [])
    }

    func testIntervalTakeStopsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let ticks = Recorder<Int>()
        let res = scheduler.start {
            Observable<Int>.interval(.seconds(10), scheduler: scheduler).do(onNext: { ticks.append($0) }).take(3)
        }
        XCTAssertEqual(res.events, [.next(210, 0), .next(220, 1), .next(230, 2), .completed(230)])
        XCTAssertEqual(ticks.values, [0, 1, 2])
    }

    func testAdvanceToRunsWorkDueAtTheTarget() {
        let scheduler = TestScheduler(initialClock: 0)
        let ran = Recorder<Int>()
        _ = scheduler.scheduleAt(300) { ran.append(scheduler.clock) }
        scheduler.advanceTo(300)
        XCTAssertEqual(ran.values, [300])
        XCTAssertEqual(scheduler.clock, 300)
    }

    func testMergeMaxConcurrentErrorDisposesQueued() {
        let scheduler = TestScheduler(initialClock: 0)
        let x = scheduler.createColdObservable([.error(10, TestError(1))] as [Recorded<Event<Int>>])
        let y = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let outer = scheduler.createHotObservable([.next(210, x.asObservable()), .next(212, y.asObservable()), .completed(300)])
        let res = scheduler.start { outer.merge(maxConcurrent: 1) }
        XCTAssertEqual(res.events, [.error(220, TestError(1))])
        XCTAssertEqual(y.subscriptions, [])
        XCTAssertEqual(outer.subscriptions, [Subscription(200, 220)])
    }

    func testConcatOfErrorNeverSubscribesTheNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let x = scheduler.createColdObservable([.next(5, 1), .error(10, TestError(1))])
        let y = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { Observable.concat([x.asObservable(), y.asObservable()]) }
        XCTAssertEqual(res.events, [.next(205, 1), .error(210, TestError(1))])
        XCTAssertEqual(y.subscriptions, [])
    }

    func testZipErrorAfterOtherCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.error(230, TestError(2))] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.zip(a, b) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(230, TestError(2))])
    }

    func testAmbErrorWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.error(205, TestError(1))] as [Recorded<Event<Int>>])
        let b = scheduler.createHotObservable([.next(210, 2), .completed(300)])
        let res = scheduler.start { a.amb(b) }
        XCTAssertEqual(res.events, [.error(205, TestError(1))])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 205)])
    }

    func testFlatMapLatestIgnoresStaleInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            outer.flatMapLatest { value in
                Observable<Int>.timer(.seconds(15), scheduler: scheduler).map { _ in value }
            }
        }
        XCTAssertEqual(res.events, [.next(235, 2), .completed(300)])
    }

    func testCreateDisposesTheReturnedDisposableAfterSynchronousTermination() {
        let disposed = Recorder<Bool>()
        let observable = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create { disposed.append(true) }
        }
        let values = Recorder<Int>()
        _ = observable.take(1).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [1])
        XCTAssertEqual(disposed.values, [true])
    }

    func testMaybeOfTwoElementsErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.asMaybe().asObservable() }
        XCTAssertEqual(res.events, [.error(220, ReactiveError.moreThanOneElement)])
    }

    func testSingleElementOperator() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, ReactiveError.moreThanOneElement)])
    }

    func testShareWhileConnectedAfterErrorResubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let shared = xs.share(replay: 1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        _ = scheduler.scheduleAt(200) { shared.subscribe(first).disposed(by: bag) }
        _ = scheduler.scheduleAt(250) { shared.subscribe(second).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(second.events, [.next(260, 1), .error(270, TestError(1))])
    }

    func testShareReplayLateSubscriberWhileConnectedGetsReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        let shared = xs.share(replay: 1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        _ = scheduler.scheduleAt(200) { shared.subscribe(first).disposed(by: bag) }
        _ = scheduler.scheduleAt(230) { shared.subscribe(second).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(second.events, [.next(230, 2), .next(240, 3)])
    }

    func testWindowTimeEmitsEmptyWindows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(205, 1), .completed(235)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(10), count: 100, scheduler: scheduler).flatMap { $0.toArray().asObservable() }
        }
        XCTAssertEqual(res.events, [.next(210, [1]), .next(220, []), .next(230, []), .next(235, []), .completed(235)])
    }

    func testDebounceRestartsOnEachElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(219, 2), .next(228, 3), .next(300, 4)])
        let res = scheduler.start(disposed: 400) { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(238, 3), .next(310, 4)])
    }

    func testSwitchLatestOuterCompletesWaitsForInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let x = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let outer = scheduler.createHotObservable([.next(210, x.asObservable()), .completed(215)])
        let res = scheduler.start { outer.switchLatest() }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(240)])
    }

    func testTakeUntilTriggerErrorFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let trigger = scheduler.createHotObservable([.error(220, TestError(9))] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.take(until: trigger) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(9))])
    }

    func testRetryWhenHandlerCompletesCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError(1))])
        let res = scheduler.start { xs.retry(when: { (errors: Observable<any Error>) in errors.take(2) }) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(215, 1), .next(225, 1), .completed(230)])
    }

    func testRetryWhenDelayed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, TestError(1))])
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<any Error>) in
                errors.enumerated().flatMap { attempt, error -> Observable<Int> in
                    attempt < 2 ? Observable<Int>.timer(.seconds(5), scheduler: scheduler) : Observable.error(error)
                }
            })
        }
        XCTAssertEqual(res.events, [.next(205, 1), .next(220, 1), .next(235, 1), .error(240, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(215, 225), Subscription(230, 240)])
    }

    func testTakeZeroNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.take(0) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testSkipUntilTriggerCompletingEmptySkipsForever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let trigger = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.skip(until: trigger) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSkipUntilTriggerAtSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.skip(until: Observable.just(0)) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(300)])
    }

    func testStartWithOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 3), .completed(300)])
        let res = scheduler.start { xs.startWith(1, 2) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(210, 3), .completed(300)])
    }

    func testElementAtBeyondCountErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 3), .completed(300)])
        let res = scheduler.start { xs.element(at: 2) }
        XCTAssertEqual(res.events, [.error(300, ReactiveError.argumentOutOfRange)])
    }

    func testFirstOfEmptyIsNil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(300)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.first().asObservable() }
        XCTAssertEqual(res.events, [.next(300, nil), .completed(300)])
    }

    func testFirstDisposesAtTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 3), .completed(300)])
        let res = scheduler.start { xs.first().asObservable() }
        XCTAssertEqual(res.events, [.next(210, 3), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testTakeWhileInclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 5), .next(230, 2), .completed(300)])
        let res = scheduler.start { xs.take(until: { $0 > 3 }, behavior: .inclusive) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 5), .completed(220)])
    }

    func testScanSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.scan(10, accumulator: +) }
        XCTAssertEqual(res.events, [.next(210, 11), .next(220, 13), .completed(300)])
    }

    func testGroupByKeySelectorErrorReachesGroups() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.groupBy { value -> Int in
                if value == 2 { throw TestError(3) }
                return value % 2
            }.flatMap { $0.asObservable() }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(3))])
    }

    func testDistinctUntilChanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 2), .next(240, 1), .completed(300)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(240, 1), .completed(300)])
    }

    func testSingleZipError() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let b = scheduler.createColdObservable([.error(5, TestError(1))] as [Recorded<Event<Int>>])
        let res = scheduler.start { Single.zip(a.asSingle(), b.asSingle()).map { $0 + $1 }.asObservable() }
        XCTAssertEqual(res.events, [.error(205, TestError(1))])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 205)])
    }

    func testCompletableConcatAndMerge() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
        let b = scheduler.createColdObservable([.completed(5)] as [Recorded<Event<Never>>])
        let res = scheduler.start {
            a.asObservable().asCompletable().andThen(b.asObservable().asCompletable()).asObservable()
        }
        XCTAssertEqual(res.events, [.completed(215)])
        XCTAssertEqual(b.subscriptions, [Subscription(210, 215)])
    }

    func testDeferredFactoryThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.deferred { throw TestError(4) } }
        XCTAssertEqual(res.events, [.error(200, TestError(4))])
    }

    func testUsingDisposesResourceAtTermination() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposedAt = Recorder<Int>()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start {
            Observable.using({ () -> SingleAssignmentDisposable in
                let resource = SingleAssignmentDisposable()
                resource.setDisposable(Disposables.create { disposedAt.append(scheduler.clock) })
                return resource
            }, observableFactory: { _ in xs.asObservable() })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(disposedAt.values, [220])
    }

    func testMulticastSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { shared in Observable.zip(shared, shared.skip(1)) { $0 + $1 } })
        }
        XCTAssertEqual(res.events, [.next(220, 3), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testPublishConnectBeforeSubscribeLosesElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let connectable = xs.publish()
        let observer = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        _ = scheduler.scheduleAt(200) { connectable.connect().disposed(by: bag) }
        _ = scheduler.scheduleAt(220) { connectable.subscribe(observer).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(230, 2), .completed(300)])
    }

    func testRefCountDisconnectsWhenLastLeaves() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let shared = xs.publish().refCount()
        let a = SerialDisposable()
        let b = SerialDisposable()
        let observer = scheduler.createObserver(Int.self)
        _ = scheduler.scheduleAt(200) { a.disposable = shared.subscribe(observer) }
        _ = scheduler.scheduleAt(205) { b.disposable = shared.subscribe(observer) }
        _ = scheduler.scheduleAt(215) { a.dispose() }
        _ = scheduler.scheduleAt(225) { b.dispose() }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(observer.events, [.next(210, 1), .next(210, 1)])
    }

    func testDriverRecoversAndShares() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: -1)
            let bag = DisposeBag()
            _ = scheduler.scheduleAt(200) { driver.drive(first).disposed(by: bag) }
            _ = scheduler.scheduleAt(215) { driver.drive(second).disposed(by: bag) }
            scheduler.start()
        }
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, -1), .completed(220)])
        XCTAssertEqual(second.events, [.next(215, 1), .next(220, -1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testSignalDoesNotReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = xs.asSignal(onErrorJustReturn: -1)
            let bag = DisposeBag()
            _ = scheduler.scheduleAt(200) { signal.emit(to: first).disposed(by: bag) }
            _ = scheduler.scheduleAt(215) { signal.emit(to: second).disposed(by: bag) }
            scheduler.start()
        }
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(second.events, [.next(220, 2), .completed(230)])
    }

    func testDriverResubscribesAfterAllLeave() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: -1)
            let a = SerialDisposable()
            let b = SerialDisposable()
            _ = scheduler.scheduleAt(200) { a.disposable = driver.drive(first) }
            _ = scheduler.scheduleAt(225) { a.dispose() }
            _ = scheduler.scheduleAt(250) { b.disposable = driver.drive(second) }
            _ = scheduler.scheduleAt(300) { b.dispose() }
            scheduler.start()
        }
        XCTAssertEqual(second.events, [.next(260, 1), .next(270, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225), Subscription(250, 300)])
    }

    func testCurrentThreadSchedulerRunsNestedWorkAfterTheCurrentAction() {
        let order = Recorder<String>()
        CurrentThreadScheduler.instance.schedule {
            order.append("a")
            CurrentThreadScheduler.instance.schedule { order.append("b") }
            order.append("a-end")
        }
        XCTAssertEqual(order.values, ["a", "a-end", "b"])
    }

    func testMergeOfCurrentThreadSequencesInterleaves() {
        let values = Recorder<Int>()
        let s = CurrentThreadScheduler.instance
        _ = Observable.merge(Observable.of(1, 2, scheduler: s), Observable.of(3, 4, scheduler: s))
            .subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [1, 3, 2, 4])
    }

    func testImmediateSchedulerRunsAtOnce() {
        let order = Recorder<String>()
        ImmediateScheduler.instance.schedule {
            order.append("a")
            ImmediateScheduler.instance.schedule { order.append("b") }
            order.append("a-end")
        }
        XCTAssertEqual(order.values, ["a", "b", "a-end"])
    }

    func testRepeatElementTakeStops() {
        let values = Recorder<Int>()
        _ = Observable.repeatElement(7, scheduler: CurrentThreadScheduler.instance).take(3).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [7, 7, 7])
    }


    func testGroupKeepsTheSourceAfterTheOuterIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 3), .next(230, 2), .next(240, 5), .completed(300)])
        let observer = scheduler.createObserver(Int.self)
        let outer = SerialDisposable()
        let inner = SerialDisposable()
        _ = scheduler.scheduleAt(200) {
            outer.disposable = xs.groupBy { $0 % 2 }.subscribe(onNext: { group in
                if group.key == 1 { inner.disposable = group.subscribe(observer) }
            })
        }
        _ = scheduler.scheduleAt(215) { outer.dispose() }
        _ = scheduler.scheduleAt(235) { inner.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testWindowKeepsTheSourceWhileAWindowIsSubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        let observer = scheduler.createObserver(Int.self)
        let outer = SerialDisposable()
        let inner = SerialDisposable()
        _ = scheduler.scheduleAt(200) {
            outer.disposable = xs.window(timeSpan: .seconds(100), count: 10, scheduler: scheduler).subscribe(onNext: { window in
                inner.disposable = window.subscribe(observer)
            })
        }
        _ = scheduler.scheduleAt(215) { outer.dispose() }
        _ = scheduler.scheduleAt(230) { inner.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testMaterializeDematerialize() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = scheduler.start { xs.materialize().dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(1))])
    }
}
