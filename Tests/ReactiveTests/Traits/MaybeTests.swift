import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class MaybeTests: LeakCheckingTestCase {
    func testCreateDeliversSuccessEmptyOrError() {
        let scheduler = TestScheduler(initialClock: 0)
        let success = scheduler.start {
            Maybe<Int>.create { observer in scheduler.scheduleRelative(.seconds(5)) { observer(.success(1)) } }
        }
        XCTAssertEqual(success.events, [.next(205, 1), .completed(205)])
        let empty = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            Maybe<Int>.create { observer in scheduler.scheduleRelative(.seconds(5)) { observer(.completed) } }
        }
        XCTAssertEqual(empty.events, [.completed(1205)])
        let failed = scheduler.start(created: 1400, subscribed: 1500, disposed: 1600) {
            Maybe<Int>.create { observer in scheduler.scheduleRelative(.seconds(5)) { observer(.error(TestError(1))) } }
        }
        XCTAssertEqual(failed.events, [.error(1505, TestError(1))])
    }

    func testSubscribeCallsOnCompletedOnlyWhenEmpty() {
        let log = Recorder<String>()
        Maybe.just(1).subscribe(onSuccess: { log.append("success \($0)") }, onCompleted: { log.append("completed") })
        Maybe<Int>.empty().subscribe(onSuccess: { log.append("success \($0)") }, onCompleted: { log.append("completed") })
        Maybe<Int>.error(TestError(1)).subscribe(onError: { _ in log.append("error") })
        XCTAssertEqual(log.values, ["success 1", "completed", "error"])
    }

    func testMapFilterAndAThrowingMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let mapped = scheduler.start { xs.asMaybe().map { $0 * 5 }.filter { $0 > 5 } }
        XCTAssertEqual(mapped.events, [.next(210, 10), .completed(210)])
        let filteredOut = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) { xs.asMaybe().filter { $0 > 5 } }
        XCTAssertEqual(filteredOut.events, [.completed(1210)])
        let failing = scheduler.start(created: 1400, subscribed: 1500, disposed: 1600) {
            xs.asMaybe().map { _ -> Int in throw TestError(2) }
        }
        XCTAssertEqual(failing.events, [.error(1510, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(1200, 1210), Subscription(1500, 1510)])
    }

    func testAsSingleOfAnEmptyMaybeFailsWithNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Maybe<Int>.empty().asSingle() }
        XCTAssertEqual(res.events, [.error(200, ReactiveError.noElements)])
    }

    func testCatchSwitchesAtTheErrorTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, TestError(1))] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asMaybe().catch { _ in Maybe.just(4) } }
        XCTAssertEqual(res.events, [.next(210, 4), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testDisposedAtThousandReleasesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asMaybe() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}
