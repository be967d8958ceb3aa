import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class FlatMapLatestTests: LeakCheckingTestCase {
    func testANewOuterElementDisposesThePreviousInnerAtItsTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let ys1 = scheduler.createColdObservable([.next(10, "a1"), .next(40, "a2"), .completed(50)])
        let ys2 = scheduler.createColdObservable([.next(10, "b1"), .completed(100)])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? ys1 : ys2 } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(250, "b1"), .completed(340)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(240, 340)])
    }

    func testAnInnerThatCompletesIsReleasedAtItsCompletionTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(280, 2), .completed(400)])
        let ys = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let res = scheduler.start { xs.flatMapLatest { _ in ys } }
        XCTAssertEqual(res.events, [.next(220, "a"), .next(290, "a"), .completed(400)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230), Subscription(280, 300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testThrowingSelectorErrorsAtTheThrowTickAndDisposesTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let ys = scheduler.createColdObservable([.next(10, "a1"), .next(100, "a2")])
        let res = scheduler.start {
            xs.flatMapLatest { value -> TestableObservable<String> in
                if value == 2 { throw TestError(2) }
                return ys
            }
        }
        XCTAssertEqual(res.events, [.next(220, "a1"), .error(240, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 240)])
    }

    func testInnerErrorPassesThroughAndDisposesTheOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let ys = scheduler.createColdObservable([.next(10, "a1"), .error(20, TestError(4))])
        let res = scheduler.start { xs.flatMapLatest { _ in ys } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .error(230, TestError(4))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testOuterErrorPassesThroughAndDisposesTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, "a1"), .next(100, "a2")])
        let res = scheduler.start { xs.flatMapLatest { _ in ys } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .error(250, TestError(1))])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
    }

    func testDisposedAtThousandDisposesOuterAndInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, "a1")] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.flatMapLatest { _ in ys } }
        XCTAssertEqual(res.events, [.next(220, "a1")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 1000)])
    }
}
