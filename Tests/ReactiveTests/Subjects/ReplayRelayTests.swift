import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class ReplayRelayTests: LeakCheckingTestCase {
    func testALateSubscriberGetsTheLastBufferSizeElementsThenLiveOnes() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        for value in 1...4 { relay.accept(value) }
        let values = Recorder<Int>()
        let subscription = relay.subscribe(onNext: { values.append($0) })
        relay.accept(5)
        subscription.dispose()
        relay.accept(6)
        XCTAssertEqual(values.values, [3, 4, 5])
    }

    func testUnboundedReplaysEverything() {
        let relay = ReplayRelay<String>.createUnbounded()
        for value in ["a", "b", "c"] { relay.accept(value) }
        let values = Recorder<String>()
        relay.asObservable().subscribe(onNext: { values.append($0) }).dispose()
        XCTAssertEqual(values.values, ["a", "b", "c"])
    }

    func testBindToRelaysSendsElementsAndStopsAtCompletionWithoutEndingTheRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230), .next(240, 3)])
        let first = ReplayRelay<Int>.create(bufferSize: 1)
        let second = ReplayRelay<Int>.create(bufferSize: 5)
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["bind"] = xs.bind(to: first, second) }
        scheduler.scheduleAt(1000) { bag.dispose("bind") }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        let values = Recorder<String>()
        let subscription = second.subscribe(onNext: { values.append("\($0)") }, onCompleted: { values.append("completed") })
        first.accept(9)
        second.accept(10)
        subscription.dispose()
        XCTAssertEqual(values.values, ["1", "2", "10"], "the relay did not complete")
        let latest = Recorder<Int>()
        first.subscribe(onNext: { latest.append($0) }).dispose()
        XCTAssertEqual(latest.values, [9])
    }

    func testBindToRelaysStopsAtAnErrorAndDisposingStopsTheBinding() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(3)), .next(230, 2)])
        let endless = scheduler.createHotObservable([.next(210, 7), .next(240, 8), .next(260, 9)] as [Recorded<Event<Int>>])
        let relay = ReplayRelay<Int>.createUnbounded()
        let bag = NamedDisposables()
        scheduler.scheduleAt(200) { bag["failing"] = failing.bind(to: relay) }
        scheduler.scheduleAt(200) { bag["endless"] = endless.bind(to: relay) }
        scheduler.scheduleAt(250) { bag.dispose("endless") }
        scheduler.scheduleAt(1000) { bag.dispose("failing") }
        scheduler.start()
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(endless.subscriptions, [Subscription(200, 250)])
        let values = Recorder<Int>()
        relay.subscribe(onNext: { values.append($0) }).dispose()
        XCTAssertEqual(values.values, [1, 7, 8])
    }

    func testBindToOptionalRelaysWrapsEachElement() {
        let relay = ReplayRelay<Int?>.create(bufferSize: 3)
        let subscription = Observable.of(1, 2).bind(to: relay)
        subscription.dispose()
        let values = Recorder<Int?>()
        relay.subscribe(onNext: { values.append($0) }).dispose()
        XCTAssertEqual(values.values, [1, 2])
    }
}

extension ReplayRelayTests {
    func testAsInfallibleReplaysTheBuffer() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        for value in 1...3 { relay.accept(value) }
        let values = Recorder<Int>()
        let subscription = relay.asInfallible().subscribe(onNext: { values.append($0) })
        relay.accept(4)
        subscription.dispose()
        XCTAssertEqual(values.values, [2, 3, 4])
    }
}
