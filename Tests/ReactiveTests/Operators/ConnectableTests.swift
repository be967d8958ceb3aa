import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// Disposables that scheduled test actions keep under a name, then dispose.
// @unchecked: `slots` is read and written only while `lock` is held.
final class NamedDisposables: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [String: any Disposable] = [:]

    subscript(name: String) -> (any Disposable)? {
        get { lock.withLock { slots[name] } }
        set { lock.withLock { slots[name] = newValue } }
    }

    /// Disposes the disposable kept under `name`, if any, and forgets it.
    func dispose(_ name: String) {
        lock.withLock { slots.removeValue(forKey: name) }?.dispose()
    }
}

/// A source with an element every 10 ticks from 210 to 400, ending as told.
private func ticks(_ scheduler: TestScheduler, ending: Recorded<Event<Int>>? = nil) -> TestableObservable<Int> {
    var events: [Recorded<Event<Int>>] = [.next(150, 0)]
    for time in stride(from: 210, through: 400, by: 10) { events.append(.next(time, time / 10)) }
    if let ending { events = events.filter { $0.time < ending.time } + [ending] }
    return scheduler.createHotObservable(events)
}

final class ConnectableTests: LeakCheckingTestCase {
    // MARK: publish

    func testPublishDeliversOnlyWhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler)
        let ys = xs.publish()
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["sub"] = ys.subscribe(res) }
        scheduler.scheduleAt(225) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(255) { bag.dispose("c") }
        scheduler.scheduleAt(1000) { bag.dispose("sub") }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(230, 23), .next(240, 24), .next(250, 25)])
        XCTAssertEqual(xs.subscriptions, [Subscription(225, 255)])
    }

    func testPublishSharesOneSubscriptionAndConnectTwiceReturnsTheSameConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler)
        let ys = xs.publish()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["a"] = ys.subscribe(a) }
        scheduler.scheduleAt(215) { bag["c1"] = ys.connect() }
        scheduler.scheduleAt(225) { bag["b"] = ys.subscribe(b) }
        scheduler.scheduleAt(235) { bag["c2"] = ys.connect() }
        scheduler.scheduleAt(245) { bag.dispose("c2") }
        scheduler.scheduleAt(1000) { bag.dispose("a"); bag.dispose("b"); bag.dispose("c1") }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(220, 22), .next(230, 23), .next(240, 24)])
        XCTAssertEqual(b.events, [.next(230, 23), .next(240, 24)])
        XCTAssertEqual(xs.subscriptions, [Subscription(215, 245)], "the second connect() shared the first connection")
    }

    func testPublishCompletionEndsTheConnectionAndALaterConnectUsesANewSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler, ending: .completed(235))
        let ys = xs.publish()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["early"] = ys.subscribe(early) }
        scheduler.scheduleAt(205) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(300) { bag["late"] = ys.subscribe(late) }
        scheduler.scheduleAt(310) { bag["c2"] = ys.connect() }
        scheduler.scheduleAt(1000) { for name in ["early", "late", "c", "c2"] { bag.dispose(name) } }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 21), .next(220, 22), .next(230, 23), .completed(235)])
        XCTAssertEqual(late.events, [], "a new subject for the new connection, and the source sends nothing after 235")
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 235), Subscription(310, 1000)])
    }

    func testPublishErrorReachesSubscribersAndEndsTheConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler, ending: .error(225, TestError(4)))
        let ys = xs.publish()
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["sub"] = ys.subscribe(res) }
        scheduler.scheduleAt(200) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(1000) { bag.dispose("sub"); bag.dispose("c") }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 21), .next(220, 22), .error(225, TestError(4))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testPublishSubscriberDisposingLeavesTheConnectionRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler)
        let ys = xs.publish()
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["sub"] = ys.subscribe(res) }
        scheduler.scheduleAt(200) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(225) { bag.dispose("sub") }
        scheduler.scheduleAt(300) { bag.dispose("c") }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 21), .next(220, 22)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)], "only the connection controls the source")
    }

    // MARK: replay

    func testReplayGivesALateSubscriberTheBufferThenLiveElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler)
        let ys = xs.replay(2)
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(245) { bag["sub"] = ys.subscribe(res) }
        scheduler.scheduleAt(265) { bag.dispose("sub") }
        scheduler.scheduleAt(1000) { bag.dispose("c") }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(245, 23), .next(245, 24), .next(250, 25), .next(260, 26)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testReplayRetiresItsSubjectAtAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler, ending: .error(235, TestError(5)))
        let ys = xs.replay(1)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["early"] = ys.subscribe(early) }
        scheduler.scheduleAt(200) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(1000) { bag.dispose("early"); bag.dispose("c"); bag.dispose("late") }
        // Subscribed at the error's tick, after it: the error retired the connection's subject.
        scheduler.scheduleAt(235) { bag["late"] = ys.subscribe(late) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 21), .next(220, 22), .next(230, 23), .error(235, TestError(5))])
        XCTAssertEqual(late.events, [], "after the error the connection's subject is retired; a new one waits for connect()")
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testReplayDisconnectedThenReconnectedStartsAFreshBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler)
        let ys = xs.replay(3)
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(235) { bag.dispose("c") }
        scheduler.scheduleAt(245) { bag["sub"] = ys.subscribe(res) }
        scheduler.scheduleAt(255) { bag["c2"] = ys.connect() }
        scheduler.scheduleAt(275) { bag.dispose("c2") }
        scheduler.scheduleAt(1000) { bag.dispose("sub") }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(260, 26), .next(270, 27)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235), Subscription(255, 275)])
    }

    func testReplayAllGivesALateSubscriberEveryElementThenTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler, ending: .error(245, TestError(8)))
        let ys = xs.replayAll()
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(235) { bag["sub"] = ys.asObservable().subscribe(res) }
        scheduler.scheduleAt(1000) { bag.dispose("sub"); bag.dispose("c") }
        scheduler.start()
        XCTAssertEqual(res.events, [
            .next(235, 21), .next(235, 22), .next(235, 23), .next(240, 24), .error(245, TestError(8)),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
    }

    // MARK: multicast

    func testMulticastIntoOneSubjectKeepsItsBufferAcrossConnections() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler)
        let ys = xs.multicast(ReplaySubject<Int>.create(bufferSize: 2))
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(235) { bag.dispose("c") }
        scheduler.scheduleAt(245) { bag["sub"] = ys.subscribe(res) }
        scheduler.scheduleAt(255) { bag["c2"] = ys.connect() }
        scheduler.scheduleAt(275) { bag.dispose("c2") }
        scheduler.scheduleAt(1000) { bag.dispose("sub") }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(245, 22), .next(245, 23), .next(260, 26), .next(270, 27)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235), Subscription(255, 275)])
    }

    func testMulticastIntoOneSubjectAfterCompletionGivesTheTerminalEventToLateSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler, ending: .completed(225))
        let ys = xs.multicast(ReplaySubject<Int>.create(bufferSize: 1))
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(300) { bag["sub"] = ys.subscribe(res) }
        scheduler.scheduleAt(1000) { bag.dispose("sub"); bag.dispose("c") }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(300, 22), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testMulticastMakeSubjectMakesOneSubjectPerConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler)
        let made = Recorder<Int>()
        let ys = xs.multicast(makeSubject: { () -> PublishSubject<Int> in
            made.append(scheduler.clock)
            return PublishSubject()
        })
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["sub"] = ys.subscribe(res) }
        scheduler.scheduleAt(205) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(225) { bag.dispose("c") }
        scheduler.scheduleAt(235) { bag["c2"] = ys.connect() }
        scheduler.scheduleAt(255) { bag.dispose("c2") }
        scheduler.scheduleAt(1000) { bag.dispose("sub") }
        scheduler.start()
        XCTAssertEqual(made.values, [200, 235])
        XCTAssertEqual(res.events, [.next(210, 21), .next(220, 22)], "the first subject is not fed by the second connection")
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 225), Subscription(235, 255)])
    }

    func testConnectingFromTheCompletionHandlerStartsANewConnectionAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler, ending: .completed(235))
        let ys = xs.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 1) })
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) {
            bag["sub"] = ys.do(onCompleted: {
                bag["sub2"] = ys.subscribe(res)
                bag["c2"] = ys.connect()
            }).subscribe(res)
        }
        scheduler.scheduleAt(215) { bag["c"] = ys.connect() }
        scheduler.scheduleAt(300) { bag.dispose("c2") }
        scheduler.scheduleAt(1000) { for name in ["sub", "sub2", "c"] { bag.dispose(name) } }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(220, 22), .next(230, 23), .completed(235)])
        XCTAssertEqual(xs.subscriptions, [Subscription(215, 235), Subscription(235, 300)])
    }

    // MARK: refCount

    func testRefCountConnectsOnTheFirstSubscriberAndDisconnectsAfterTheLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler)
        let ys = xs.publish().refCount()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(205) { bag["a"] = ys.subscribe(a) }
        scheduler.scheduleAt(215) { bag["b"] = ys.subscribe(b) }
        scheduler.scheduleAt(225) { bag.dispose("a") }
        scheduler.scheduleAt(245) { bag.dispose("b") }
        scheduler.scheduleAt(255) { bag["a2"] = ys.subscribe(a) }
        scheduler.scheduleAt(265) { bag.dispose("a2") }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 21), .next(220, 22), .next(260, 26)])
        XCTAssertEqual(b.events, [.next(220, 22), .next(230, 23), .next(240, 24)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 245), Subscription(255, 265)])
    }

    func testRefCountErrorReachesEverySubscriberAndALaterOneReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(6))])
        let ys = xs.publish().refCount()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["a"] = ys.subscribe(a) }
        scheduler.scheduleAt(300) { bag["b"] = ys.subscribe(b) }
        scheduler.scheduleAt(1000) { bag.dispose("a"); bag.dispose("b") }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .error(220, TestError(6))])
        XCTAssertEqual(b.events, [.next(310, 1), .error(320, TestError(6))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testRefCountOfASynchronousSourceDeliversEverythingToTheFirstSubscriber() {
        let values = Recorder<String>()
        let shared = Observable.of(1, 2, 3).publish().refCount()
        shared.subscribe(onNext: { values.append("\($0)") }, onCompleted: { values.append("completed") })
        shared.subscribe(onNext: { values.append("again \($0)") }, onCompleted: { values.append("again completed") })
        XCTAssertEqual(values.values, ["1", "2", "3", "completed", "again 1", "again 2", "again 3", "again completed"])
    }

    func testRefCountOverAnotherConnectableKind() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = ticks(scheduler)
        let ys = CountingConnectable(base: xs.publish(), scheduler: scheduler)
        let shared = ys.refCount()
        let res = scheduler.createObserver(Int.self)
        let bag = NamedDisposables()
        scheduler.scheduleAt(205) { bag["a"] = shared.subscribe(res) }
        scheduler.scheduleAt(215) { bag["b"] = shared.subscribe(onNext: { _ in }) }
        scheduler.scheduleAt(225) { bag.dispose("a") }
        scheduler.scheduleAt(235) { bag.dispose("b") }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 21), .next(220, 22)])
        XCTAssertEqual(ys.connects.values, [205])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 235)])
    }
}

/// A connectable observable of a kind `refCount()` does not know, counting `connect()` calls.
private struct CountingConnectable: ConnectableObservableType {
    let base: ConnectableObservable<Int>
    let scheduler: TestScheduler
    let connects = Recorder<Int>()

    func connect() -> any Disposable {
        connects.append(scheduler.clock)
        return base.connect()
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Int {
        base.subscribe(observer)
    }

    func asObservable() -> Observable<Int> { base.asObservable() }
}
