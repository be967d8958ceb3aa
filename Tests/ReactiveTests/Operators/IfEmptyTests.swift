import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class IfEmptyTests: LeakCheckingTestCase {
    func testDefaultIsEmittedWhenTheSourceCompletesEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.ifEmpty(default: 9) }
        XCTAssertEqual(res.events, [.next(250, 9), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDefaultIsNotEmittedAfterAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.ifEmpty(default: 9) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
    }

    func testAnErrorIsNotReplaced() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, TestError(1))] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.ifEmpty(default: 9) }
        XCTAssertEqual(res.events, [.error(250, TestError(1))])
    }

    func testSwitchToSubscribesTheOtherAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, 5), .next(20, 6), .completed(30)])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys) }
        XCTAssertEqual(res.events, [.next(260, 5), .next(270, 6), .completed(280)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(250, 280)])
    }

    func testSwitchToIsNotSubscribedWhenTheSourceHadElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let ys = scheduler.createColdObservable([.next(10, 5), .completed(30)])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testSwitchToErrorPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.error(10, TestError(2))] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys) }
        XCTAssertEqual(res.events, [.error(260, TestError(2))])
    }

    func testDisposeStopsTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, 5), .next(900, 6)])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys) }
        XCTAssertEqual(res.events, [.next(260, 5)])
        XCTAssertEqual(ys.subscriptions, [Subscription(250, 1000)])
    }
}
