import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class ShareTests: LeakCheckingTestCase {
    func testShareSubscribesUpstreamOnceAndReplaysToALateSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let shared = xs.share(replay: 1)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let subscriptions = CompositeDisposable()
        scheduler.scheduleAt(200) { subscriptions.insert(shared.subscribe(early)) }
        scheduler.scheduleAt(225) { subscriptions.insert(shared.subscribe(late)) }
        scheduler.scheduleAt(1000) { subscriptions.dispose() }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(late.events, [.next(225, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testShareWithoutReplayGivesLateSubscribersOnlyNewElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)])
        let subscribed = Recorder<Int>()
        let shared = xs.do(onSubscribe: { subscribed.append(scheduler.clock) }).share()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let subscriptions = CompositeDisposable()
        scheduler.scheduleAt(200) { subscriptions.insert(shared.subscribe(early)) }
        scheduler.scheduleAt(200) { subscriptions.insert(shared.subscribe(late)) }
        scheduler.scheduleAt(215) { subscriptions.insert(shared.subscribe(late)) }
        scheduler.scheduleAt(1000) { subscriptions.dispose() }
        scheduler.start()
        XCTAssertEqual(subscribed.values, [200])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(early.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(late.events, [
            .next(210, 1), .next(230, 2), .next(230, 2), .completed(240), .completed(240),
        ])
    }

    func testTheLastDisposalReleasesUpstreamAndALaterSubscriberReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .next(270, 3)] as [Recorded<Event<Int>>])
        let shared = xs.share(replay: 1)
        let first = SerialDisposable()
        let second = SerialDisposable()
        let third = SerialDisposable()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        let c = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { first.disposable = shared.subscribe(a) }
        scheduler.scheduleAt(220) { second.disposable = shared.subscribe(b) }
        scheduler.scheduleAt(230) { first.dispose() }
        scheduler.scheduleAt(240) { second.dispose() }
        scheduler.scheduleAt(260) { third.disposable = shared.subscribe(c) }
        scheduler.scheduleAt(1000) { third.dispose() }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240), Subscription(260, 1000)])
        XCTAssertEqual(a.events, [.next(210, 1)])
        XCTAssertEqual(b.events, [.next(220, 1)])
        XCTAssertEqual(c.events, [.next(270, 3)], "the replay buffer does not outlive the connection")
    }

    func testASubscriberAfterCompletionReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.share(replay: 1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let subscriptions = CompositeDisposable()
        scheduler.scheduleAt(200) { subscriptions.insert(shared.subscribe(first)) }
        scheduler.scheduleAt(300) { subscriptions.insert(shared.subscribe(second)) }
        scheduler.scheduleAt(1000) { subscriptions.dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testAnUpstreamErrorReachesEverySubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let shared = xs.share(replay: 1)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        let subscriptions = CompositeDisposable()
        scheduler.scheduleAt(200) { subscriptions.insert(shared.subscribe(a)) }
        scheduler.scheduleAt(215) { subscriptions.insert(shared.subscribe(b)) }
        scheduler.scheduleAt(1000) { subscriptions.dispose() }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .error(220, TestError(1))])
        XCTAssertEqual(b.events, [.next(215, 1), .error(220, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAThrowingMapUpstreamErrorsEverySubscriberAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw TestError(2) }
                return value
            }
            .share(replay: 1)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testShareDisposedAtThousandReleasesUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.share(replay: 2) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    /// `func load() -> Observable<T> { x.share(replay: 1) }`: the caller keeps only the subscription.
    func testTheSharedObservableReleasedAfterSubscribingKeepsItsConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        @Sendable func load() -> Observable<Int> { xs.share(replay: 1) }
        let res = scheduler.createObserver(Int.self)
        let subscription = SerialDisposable()
        scheduler.scheduleAt(200) { subscription.disposable = load().subscribe(res) }
        scheduler.scheduleAt(250) { subscription.dispose() }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)], "the last disposal releases the upstream")
    }

    func testTheSharedObservableReleasedAfterSubscribingStillCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.createObserver(Int.self)
        let subscription = SerialDisposable()
        scheduler.scheduleAt(200) { subscription.disposable = xs.share().subscribe(res) }
        scheduler.scheduleAt(1000) { subscription.dispose() }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}

final class ShareScopeTests: LeakCheckingTestCase {
    func testForeverGivesASubscriberAfterCompletionTheBufferAndCompletionWithoutResubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let shared = xs.share(replay: 1, scope: .forever)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let subscriptions = CompositeDisposable()
        scheduler.scheduleAt(200) { subscriptions.insert(shared.subscribe(first)) }
        scheduler.scheduleAt(300) { subscriptions.insert(shared.subscribe(second)) }
        scheduler.scheduleAt(1000) { subscriptions.dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(second.events, [.next(300, 2), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testWhileConnectedResubscribesForASubscriberAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let shared = xs.share(replay: 1, scope: .whileConnected)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let subscriptions = CompositeDisposable()
        scheduler.scheduleAt(200) { subscriptions.insert(shared.subscribe(first)) }
        scheduler.scheduleAt(300) { subscriptions.insert(shared.subscribe(second)) }
        scheduler.scheduleAt(1000) { subscriptions.dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(second.events, [.next(310, 1), .next(320, 2), .completed(330)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(300, 330)])
    }

    func testForeverKeepsTheBufferAcrossConnections() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .next(270, 4)] as [Recorded<Event<Int>>])
        let shared = xs.share(replay: 2, scope: .forever)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["first"] = shared.subscribe(first) }
        scheduler.scheduleAt(230) { bag.dispose("first") }
        scheduler.scheduleAt(260) { bag["second"] = shared.subscribe(second) }
        scheduler.scheduleAt(280) { bag.dispose("second") }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(second.events, [.next(260, 1), .next(260, 2), .next(270, 4)], "stale elements of the first connection, then live ones")
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(260, 280)])
    }

    func testForeverErrorReachesLateSubscribersWithTheBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(7))])
        let shared = xs.share(replay: 1, scope: .forever)
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["first"] = shared.subscribe(first) }
        scheduler.scheduleAt(250) { bag["late"] = shared.subscribe(late) }
        scheduler.scheduleAt(1000) { bag.dispose("first"); bag.dispose("late") }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .error(220, TestError(7))])
        XCTAssertEqual(late.events, [.next(250, 1), .error(250, TestError(7))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testForeverWithoutReplayGivesLateSubscribersOnlyTheTerminalEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.share(scope: .forever)
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["first"] = shared.subscribe(first) }
        scheduler.scheduleAt(300) { bag["late"] = shared.subscribe(late) }
        scheduler.scheduleAt(1000) { bag.dispose("first"); bag.dispose("late") }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(late.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
