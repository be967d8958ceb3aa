import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class FirstTests: LeakCheckingTestCase {
    func testSucceedsWithTheFirstElementAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.first() }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testAnEmptySourceSucceedsWithNil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.first() }
        XCTAssertEqual(res.events, [.next(250, nil), .completed(250)])
    }

    func testAnErrorFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, TestError(1))] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.first() }
        XCTAssertEqual(res.events, [.error(250, TestError(1))])
    }

    func testDisposeBeforeAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(1100, 1)])
        let res = scheduler.start { xs.first() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testSubscribesAsASingle() {
        let result = Recorder<Int?>()
        Observable.of(4, 5).first().subscribe(onSuccess: { result.append($0) })
        Observable<Int>.empty().first().subscribe(onSuccess: { result.append($0) })
        XCTAssertEqual(result.values, [4, nil])
    }
}
