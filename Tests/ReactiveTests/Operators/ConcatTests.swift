import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class ConcatTests: LeakCheckingTestCase {
    func testConcatSubscribesTheSecondAtTheFirstsCompletionTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let ys = scheduler.createColdObservable([.next(5, 3), .completed(10)])
        let res = scheduler.start { Observable.concat(xs.asObservable(), ys.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(235, 3), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 240)])
    }

    func testInstanceConcat() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.concat(ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testConcatOfAnObservableOfObservablesWaitsForTheRunningInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let outer = scheduler.createHotObservable([.next(205, xs), .next(206, ys), .completed(207)])
        let res = scheduler.start { outer.concat() }
        XCTAssertEqual(res.events, [.next(215, 1), .next(235, 2), .completed(245)])
        XCTAssertEqual(outer.subscriptions, [Subscription(200, 207)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(225, 245)])
    }

    func testConcatErrorInTheFirstNeverSubscribesTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let ys = scheduler.createColdObservable([.next(5, 3), .completed(10)])
        let res = scheduler.start { Observable.concat(xs.asObservable(), ys.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testConcatThrowingMapInTheSecondErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(5, 3), .completed(10)])
        let res = scheduler.start {
            Observable.concat(
                xs.asObservable(),
                ys.map { value -> Int in
                    if value == 3 { throw TestError(3) }
                    return value
                }
            )
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(225, TestError(3))])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 225)])
    }

    func testConcatDisposedAtThousandDisposesTheRunningSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(5, 3)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.concat(xs.asObservable(), ys.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(225, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 1000)])
    }
}
