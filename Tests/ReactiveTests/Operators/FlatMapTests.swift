import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// `flatMap` and `concatMap`: the outer `xs` picks one of the cold inner sequences per element.
final class FlatMapTests: LeakCheckingTestCase {
    private struct Fixture {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int>
        let ys1: TestableObservable<String>
        let ys2: TestableObservable<String>

        init(outer: [Recorded<Event<Int>>], first: [Recorded<Event<String>>], second: [Recorded<Event<String>>]) {
            xs = scheduler.createHotObservable(outer)
            ys1 = scheduler.createColdObservable(first)
            ys2 = scheduler.createColdObservable(second)
        }

        func inner(_ index: Int) -> TestableObservable<String> { index == 1 ? ys1 : ys2 }
    }

    private func standard() -> Fixture {
        Fixture(
            outer: [.next(150, 9), .next(210, 1), .next(220, 2), .completed(300)],
            first: [.next(10, "a1"), .next(30, "a2"), .completed(40)],
            second: [.next(5, "b1"), .completed(15)]
        )
    }

    func testFlatMapMergesInnerSequencesAsTheyCome() {
        let f = standard()
        let res = f.scheduler.start { f.xs.flatMap { f.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(225, "b1"), .next(240, "a2"), .completed(300)])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(f.ys2.subscriptions, [Subscription(220, 235)])
    }

    func testFlatMapWaitsForTheLastInnerAfterTheOuterCompletes() {
        let f = Fixture(
            outer: [.next(210, 1), .completed(220)],
            first: [.next(10, "a1"), .completed(50)],
            second: []
        )
        let res = f.scheduler.start { f.xs.flatMap { f.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .completed(260)])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 260)])
    }

    func testFlatMapThrowingSelectorErrorsAtTheThrowTickAndDisposesEverything() {
        let f = standard()
        let res = f.scheduler.start {
            f.xs.flatMap { value -> TestableObservable<String> in
                if value == 2 { throw TestError(2) }
                return f.inner(value)
            }
        }
        XCTAssertEqual(res.events, [.error(220, TestError(2))])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 220)])
        XCTAssertEqual(f.ys2.subscriptions, [])
    }

    func testFlatMapInnerErrorDisposesTheOuterAndTheOtherInners() {
        let f = Fixture(
            outer: [.next(210, 1), .next(220, 2), .completed(300)],
            first: [.next(10, "a1"), .next(50, "a2")],
            second: [.error(15, TestError(5))]
        )
        let res = f.scheduler.start { f.xs.flatMap { f.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .error(235, TestError(5))])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 235)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 235)])
        XCTAssertEqual(f.ys2.subscriptions, [Subscription(220, 235)])
    }

    func testFlatMapOuterErrorPassesThroughAndDisposesTheInners() {
        let f = Fixture(
            outer: [.next(210, 1), .error(230, TestError(1))],
            first: [.next(10, "a1"), .next(50, "a2")],
            second: []
        )
        let res = f.scheduler.start { f.xs.flatMap { f.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .error(230, TestError(1))])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapDisposedAtThousandDisposesOuterAndInners() {
        let f = Fixture(outer: [.next(210, 1)], first: [.next(10, "a1")], second: [])
        let res = f.scheduler.start { f.xs.flatMap { f.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, "a1")])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 1000)])
    }

    func testConcatMapSubscribesTheNextInnerWhenThePreviousCompletes() {
        let f = standard()
        let res = f.scheduler.start { f.xs.concatMap { f.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .next(240, "a2"), .next(255, "b1"), .completed(300)])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(f.ys2.subscriptions, [Subscription(250, 265)])
    }

    func testConcatMapThrowingSelectorErrorsAtTheThrowTick() {
        let f = standard()
        let res = f.scheduler.start {
            f.xs.concatMap { value -> TestableObservable<String> in
                if value == 2 { throw TestError(2) }
                return f.inner(value)
            }
        }
        XCTAssertEqual(res.events, [.error(220, TestError(2))])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 220)])
        XCTAssertEqual(f.ys2.subscriptions, [])
    }

    func testConcatMapInnerErrorStopsBeforeTheWaitingInnerIsSubscribed() {
        let f = Fixture(
            outer: [.next(210, 1), .next(220, 2), .completed(300)],
            first: [.next(10, "a1"), .error(20, TestError(3))],
            second: [.next(5, "b1"), .completed(15)]
        )
        let res = f.scheduler.start { f.xs.concatMap { f.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, "a1"), .error(230, TestError(3))])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(f.ys2.subscriptions, [])
    }

    func testConcatMapDisposedAtThousandDisposesTheRunningInner() {
        let f = Fixture(outer: [.next(210, 1), .next(220, 2)], first: [.next(10, "a1")], second: [])
        let res = f.scheduler.start { f.xs.concatMap { f.inner($0) } }
        XCTAssertEqual(res.events, [.next(220, "a1")])
        XCTAssertEqual(f.xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(f.ys1.subscriptions, [Subscription(210, 1000)])
        XCTAssertEqual(f.ys2.subscriptions, [])
    }
}
