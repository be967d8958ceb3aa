import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class IgnoreElementsTests: LeakCheckingTestCase {
    func testCompletesWithTheSourceWithoutElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFailsWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, TestError(2))])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [.error(300, TestError(2))])
    }

    func testDisposeStopsUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(1100)])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testIsACompletable() {
        let completed = Recorder<String>()
        let completable: Completable = Observable.of(1, 2).ignoreElements()
        completable.subscribe(onCompleted: { completed.append("completed") })
        XCTAssertEqual(completed.values, ["completed"])
    }

    func testRxSwift6sAsCompletableChainStillCompiles() {
        let events = Recorder<String>()
        Observable.of(1, 2).ignoreElements().asCompletable()
            .subscribe(onCompleted: { events.append("completed") }, onError: { _ in events.append("error") })
        Observable<Int>.error(TestError(1)).ignoreElements().asCompletable()
            .subscribe(onCompleted: { events.append("completed") }, onError: { _ in events.append("error") })
        XCTAssertEqual(events.values, ["completed", "error"])
    }
}
