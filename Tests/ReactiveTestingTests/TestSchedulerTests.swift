import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class TestSchedulerTests: LeakCheckingTestCase {
    func testStartCreatesSubscribesAndDisposesAtTheDefaultTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
        let res = scheduler.start { xs.map { $0 * 2 } }
        XCTAssertEqual(res.events, [.next(210, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testUnlabelledStartTakesAFunctionAsRxTestDoes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(1_010, 3)])
        @Sendable func doubled() -> Observable<Int> { xs.map { $0 * 2 } }
        let res = scheduler.start(doubled)
        XCTAssertEqual(res.events, [.next(210, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1_000)])
    }

    func testTimeoutFromTheDesignDocument() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 42), .next(220, 43), .next(300, 44)])
        let res = scheduler.start { xs.timeout(.seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 42), .next(220, 43), .error(245, ReactiveError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
    }

    func testColdObservablePlaysRelativeToEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let res = scheduler.start { ys }
        XCTAssertEqual(res.events, [.next(210, "a"), .completed(220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testDisposalAtThousandClosesAnOpenSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(500, 1)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs }
        XCTAssertEqual(res.events, [.next(500, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}

final class TestSchedulerTimelineTests: LeakCheckingTestCase {
    func testScheduleAtAndObserverRecordTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        let subscription = SingleAssignmentDisposable()
        scheduler.scheduleAt(100) { subscription.setDisposable(subject.subscribe(observer)) }
        scheduler.scheduleAt(150) { subject.onNext(1) }
        scheduler.scheduleAt(150) { subject.onNext(2) }
        scheduler.scheduleAt(250) { subject.onCompleted() }
        scheduler.start()
        subscription.dispose()
        XCTAssertEqual(observer.events, [.next(150, 1), .next(150, 2), .completed(250)])
    }

    func testStartHonoursCustomTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(320, 1), .next(350, 2), .next(420, 3)])
        let created = Recorder<Int>()
        let res = scheduler.start(created: 300, subscribed: 330, disposed: 400) { () -> TestableObservable<Int> in
            created.append(scheduler.clock)
            return xs
        }
        XCTAssertEqual(created.values, [300])
        XCTAssertEqual(res.events, [.next(350, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(330, 400)])
    }

    func testHotObservableSharesEventsAndRecordsEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(310, "b"), .completed(400)])
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(200) { xs.subscribe(first).disposed(by: bag) }
        scheduler.scheduleAt(300) { xs.subscribe(second).disposed(by: bag) }
        scheduler.scheduleAt(350) { bag.disposeAll() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, "a"), .next(310, "b")])
        XCTAssertEqual(second.events, [.next(310, "b")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 350), Subscription(300, 350)])
    }

    func testColdObservableRestartsForEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(5, 1), .completed(10)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = ys.subscribe(first) }
        scheduler.scheduleAt(200) { _ = ys.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(105, 1), .completed(110)])
        XCTAssertEqual(second.events, [.next(205, 1), .completed(210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(100), Subscription(200)])
    }

    func testOpenSubscriptionIsRecordedAsOpen() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let observer = scheduler.createObserver(Int.self)
        let subscription = SingleAssignmentDisposable()
        scheduler.scheduleAt(205) { subscription.setDisposable(xs.subscribe(observer)) }
        scheduler.advanceTo(300)
        XCTAssertEqual(xs.subscriptions, [Subscription(205)])
        subscription.dispose()
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 300)])
        XCTAssertEqual(observer.events, [.next(210, 1)])
    }

    func testWorkForNowRunsAtTheCurrentTickByDefault() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ran = Recorder<Int>()
        scheduler.scheduleAt(50) { scheduler.schedule { ran.append(scheduler.clock) } }
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(ran.values, [50])
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    /// RxTest's +1 tick: `subscribe(on:)` subscribes at 201 (and disposes at the terminal tick
    /// + 1), and a relative schedule of zero
    /// runs on the next tick; future absolute schedules and cold observables' own events keep their ticks.
    func testSimulatedProcessingDelayReproducesRxTestTimings() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ran = Recorder<String>()
        scheduler.scheduleAt(50) {
            ran.append("at \(scheduler.clock)")
            scheduler.schedule { ran.append("now \(scheduler.clock)") }
            scheduler.scheduleRelative(.zero) { ran.append("zero \(scheduler.clock)") }
            scheduler.scheduleRelative(.seconds(5)) { ran.append("five \(scheduler.clock)") }
        }
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(ran.values, ["at 50", "now 51", "zero 51", "five 55"])
        XCTAssertEqual(res.events, [.next(211, 1), .completed(221)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 222)], "RxTest disposes on the scheduler too: +1")
    }

    func testRecordedErrorsCompareByEquatableErrorOrDescription() {
        let a: Recorded<Event<Int>> = .error(10, TestError(1))
        XCTAssertEqual(a, .error(10, TestError(1)))
        XCTAssertNotEqual(a, .error(10, TestError(2)))
        XCTAssertNotEqual(a, .error(11, TestError(1)))
        XCTAssertEqual(Recorded<Event<Int>>.error(3, ReactiveError.timeout), .error(3, ReactiveError.timeout))
        XCTAssertNotEqual(Recorded<Event<Int>>.error(3, ReactiveError.timeout), .error(3, ReactiveError.noElements))
    }
}
