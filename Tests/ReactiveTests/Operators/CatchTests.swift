import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class CatchTests: LeakCheckingTestCase {
    func testCatchSwitchesToTheFallbackAtTheErrorTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .error(230, TestError(1)), .next(240, 9)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let seen = Recorder<Int>()
        let res = scheduler.start {
            xs.catch { error -> TestableObservable<Int> in
                seen.append((error as? TestError)?.code ?? -1)
                return ys
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(240, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
        XCTAssertEqual(seen.values, [1])
    }

    func testAHandlerMayBuildItsFallbackWithLeadingDotSyntax() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let res = scheduler.start { xs.catch { _ in .just(0) } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 0), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCatchWithoutAnErrorNeverSubscribesTheFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.catch { _ in ys } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testThrowingHandlerErrorsWithItsOwnErrorAtTheErrorTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let res = scheduler.start { xs.catch { _ -> Observable<Int> in throw TestError(2) } }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCatchHandlesAThrowingMapUpstreamAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw TestError(2) }
                return value
            }
            .catchAndReturn(-1)
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, -1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAnErrorFromTheFallbackPassesThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(230, TestError(1))] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(5, 2), .error(10, TestError(3))])
        let res = scheduler.start { xs.catch { _ in ys } }
        XCTAssertEqual(res.events, [.next(235, 2), .error(240, TestError(3))])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 240)])
    }

    func testDisposingDuringTheFallbackDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.catch { _ in ys } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(240, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 1000)])
    }

    func testDisposingBeforeAnErrorDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(1100, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.catch { _ in ys } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testCatchAndReturnEmitsTheElementAndCompletesAtTheErrorTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1)), .next(240, 2)])
        let res = scheduler.start { xs.catchAndReturn(99) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 99), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCatchAndReturnLeavesACompletingSourceAlone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { xs.catchAndReturn(99) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testCatchAndReturnDisposedAtThousandDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(1100, TestError(1))])
        let res = scheduler.start { xs.catchAndReturn(99) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
