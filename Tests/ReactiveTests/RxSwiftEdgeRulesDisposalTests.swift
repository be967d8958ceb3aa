import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's `Sink.forwardOn` drops every event once the sink is disposed: an observer that
/// disposes its subscription while handling an element gets nothing after it, even when the
/// operator had already decided the next event (a completion right behind the element, or an
/// element sent from inside the observer).
final class RxSwiftEdgeRulesDisposalTests: LeakCheckingTestCase {
    /// Subscribes at 200 with an observer that records each event and disposes its own
    /// subscription at the first element.
    private func disposingAtFirstElement<Element>(
        _ scheduler: TestScheduler, _ make: @escaping @Sendable () -> Observable<Element>
    ) -> TestableObserver<Element> {
        let observer = scheduler.createObserver(Element.self)
        let subscription = SerialDisposable()
        _ = scheduler.scheduleAt(200) {
            subscription.disposable = make().subscribe(AnyObserver { event in
                observer.on(event)
                if case .next = event { subscription.dispose() }
            })
        }
        scheduler.start()
        return observer
    }

    func testDebounceSendsNoCompletionAfterTheObserverDisposedAtTheLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(240, 3), .completed(245)])
        let res = disposingAtFirstElement(scheduler) { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(245, 3)])
    }

    func testThrottleSendsNoCompletionAfterTheObserverDisposedAtTheWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(217)])
        let observer = scheduler.createObserver(Int.self)
        let subscription = SerialDisposable()
        _ = scheduler.scheduleAt(200) {
            subscription.disposable = xs.throttle(.seconds(10), scheduler: scheduler).subscribe(AnyObserver { event in
                observer.on(event)
                if case .next(2) = event { subscription.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2)])
    }

    func testSampleSendsNoCompletionAfterTheObserverDisposedAtTheLastSample() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        let ticks = scheduler.createHotObservable([.next(220, "a")])
        let res = disposingAtFirstElement(scheduler) { xs.sample(ticks) }
        XCTAssertEqual(res.events, [.next(220, 1)])
    }

    func testMergeDropsAnElementSentFromInsideTheObserverThatThenDisposed() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = SerialDisposable()
        subscription.disposable = Observable.merge(a.asObservable(), b.asObservable()).subscribe(AnyObserver { event in
            if case .next(let value) = event {
                recorder.append(value)
                if value == 1 { b.onNext(2); subscription.dispose() }
            }
        })
        a.onNext(1)
        XCTAssertEqual(recorder.values, [1])
    }

    func testBufferSendsNoCompletionAfterTheObserverDisposedAtTheLastBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        let res = disposingAtFirstElement(scheduler) { xs.buffer(timeSpan: .seconds(100), count: 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(215, [1])])
    }

    func testAsSingleSendsNoCompletionAfterTheObserverDisposedAtTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        let res = disposingAtFirstElement(scheduler) { xs.asSingle().asObservable() }
        XCTAssertEqual(res.events, [.next(215, 1)])
    }

    func testTakeLastStopsItsReplayWhenTheObserverDisposes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(211, 2), .completed(215)])
        let res = disposingAtFirstElement(scheduler) { xs.takeLast(2) }
        XCTAssertEqual(res.events, [.next(215, 1)])
    }

    func testCatchAndReturnSendsNoCompletionAfterTheObserverDisposedAtTheFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(215, TestError(1))] as [Recorded<Event<Int>>])
        let res = disposingAtFirstElement(scheduler) { xs.catchAndReturn(5) }
        XCTAssertEqual(res.events, [.next(215, 5)])
    }

    func testTimerSendsNoCompletionAfterTheObserverDisposedAtTheTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = disposingAtFirstElement(scheduler) { Observable<Int>.timer(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(205, 0)])
    }

    func testTakeSendsNoCompletionAfterTheObserverDisposedAtTheLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        let res = disposingAtFirstElement(scheduler) { xs.take(1) }
        XCTAssertEqual(res.events, [.next(210, 1)])
    }

    func testReduceSendsNoCompletionAfterTheObserverDisposedAtTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        let res = disposingAtFirstElement(scheduler) { xs.reduce(0, accumulator: +) }
        XCTAssertEqual(res.events, [.next(215, 1)])
    }

    func testObserveOnDeliversNothingQueuedAfterTheObserverDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .completed(210)])
        let res = disposingAtFirstElement(scheduler) { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
    }

    func testDelayDeliversNothingQueuedAfterTheObserverDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .completed(210)])
        let res = disposingAtFirstElement(scheduler) { xs.delay(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(215, 1)])
    }

    func testIfEmptySendsNoCompletionAfterTheObserverDisposedAtTheDefault() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(215)] as [Recorded<Event<Int>>])
        let res = disposingAtFirstElement(scheduler) { xs.ifEmpty(default: 3) }
        XCTAssertEqual(res.events, [.next(215, 3)])
    }

    func testToArrayAndFirstSendNoCompletionAfterTheObserverDisposedAtTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        let res = disposingAtFirstElement(scheduler) { xs.toArray().asObservable() }
        XCTAssertEqual(res.events, [.next(215, [1])])
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .completed(215)])
        let res2 = disposingAtFirstElement(scheduler2) { ys.first().asObservable() }
        XCTAssertEqual(res2.events, [.next(210, 1)])
    }

    func testTimeoutFallbackSendsNoCompletionAfterTheObserverDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(300)] as [Recorded<Event<Int>>])
        let res = disposingAtFirstElement(scheduler) {
            xs.timeout(.seconds(10), other: Observable.just(7), scheduler: scheduler)
        }
        XCTAssertEqual(res.events, [.next(210, 7)])
    }

    func testCombineLatestDropsAnElementSentFromInsideTheObserverThatThenDisposed() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = SerialDisposable()
        b.onNext(0)
        subscription.disposable = Observable.combineLatest(a.asObservable(), b.asObservable()) { $0 + $1 }
            .subscribe(AnyObserver { event in
                if case .next(let value) = event {
                    recorder.append(value)
                    if value == 1 { b.onNext(10); subscription.dispose() }
                }
            })
        b.onNext(0)
        a.onNext(1)
        XCTAssertEqual(recorder.values, [1])
    }
}
