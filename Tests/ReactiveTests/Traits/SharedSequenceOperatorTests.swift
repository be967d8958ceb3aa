import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// The operators on `Driver` and `Signal` beyond the conversions, each with its normal, error
/// (an upstream failure turned into the fallback element) and dispose timelines.
final class SharedSequenceOperatorTests: LeakCheckingTestCase {
    private typealias Events = [Recorded<Event<Int>>]

    /// Runs `body` with the test scheduler as the sharing scheduler.
    private func withScheduler(_ body: (TestScheduler) -> Void) {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) { body(scheduler) }
    }

    func testCompactMapScanAndSkip() {
        withScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .error(240, TestError(1))])
            let res = scheduler.start {
                xs.asDriver(onErrorJustReturn: 10)
                    .compactMap { $0 == 2 ? nil : $0 }
                    .scan(0) { $0 + $1 }
                    .skip(1)
            }
            XCTAssertEqual(res.events, [.next(230, 4), .next(240, 14), .completed(240)])
            let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2)])
            let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1215) {
                ys.asSignal(onErrorJustReturn: 0).compactMap { $0 }.scan(0) { $0 + $1 }
            }
            XCTAssertEqual(disposed.events, [.next(1210, 1)])
            XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1215)])
        }
    }

    func testStartWithAndDo() {
        withScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
            let log = Recorder<String>()
            let res = scheduler.start {
                xs.asDriver(onErrorJustReturn: -1)
                    .do(
                        onNext: { log.append("next \($0)") },
                        onCompleted: { log.append("completed") },
                        onSubscribe: { log.append("subscribe") },
                        onDispose: { log.append("dispose \(scheduler.clock)") }
                    )
                    .startWith(7, 8)
            }
            XCTAssertEqual(res.events, [.next(200, 7), .next(200, 8), .next(210, 1), .next(220, -1), .completed(220)])
            XCTAssertEqual(log.values, ["subscribe", "next 1", "next -1", "completed", "dispose 220"])
            let ys = scheduler.createHotObservable([] as Events)
            let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
                ys.asDriver(onErrorJustReturn: -1).do(onDispose: { log.append("dispose \(scheduler.clock)") })
            }
            XCTAssertEqual(disposed.events, [])
            XCTAssertEqual(log.values.last, "dispose 1300")
        }
    }

    func testFlatMapMergesInnerSignals() {
        withScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(300, TestError(1))])
            let res = scheduler.start {
                xs.asSignal(onErrorJustReturn: 0).flatMap { value in
                    Observable<Int>.interval(.seconds(20), scheduler: scheduler).take(2).map { $0 + value * 10 }
                        .asSignal(onErrorJustReturn: -1)
                }
            }
            XCTAssertEqual(res.events, [
                .next(230, 10), .next(240, 20), .next(250, 11), .next(260, 21), .next(320, 0), .next(340, 1), .completed(340),
            ])
            let ys = scheduler.createHotObservable([.next(1210, 1)])
            let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1240) {
                ys.asSignal(onErrorJustReturn: 0).flatMap { _ in Signal<Int>.never() }
            }
            XCTAssertEqual(disposed.events, [])
            XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1240)])
        }
    }

    func testConcatMapRunsTheInnerDriversInOrder() {
        withScheduler { scheduler in
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError(1))])
            let res = scheduler.start {
                xs.asDriver(onErrorJustReturn: 3).concatMap { value in
                    Observable<Int>.timer(.seconds(30), scheduler: scheduler).map { _ in value }
                        .asDriver(onErrorJustReturn: -1)
                }
            }
            XCTAssertEqual(res.events, [.next(240, 1), .next(270, 2), .next(300, 3), .completed(300)])
            let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2)])
            let inner = scheduler.createColdObservable([.next(100, 9)])
            let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) {
                ys.asDriver(onErrorJustReturn: 0).concatMap { _ in inner.asDriver(onErrorJustReturn: 0) }
            }
            XCTAssertEqual(disposed.events, [])
            XCTAssertEqual(inner.subscriptions, [Subscription(1210, 1250)], "the second waits for the first")
            XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
        }
    }

    func testSwitchLatestFollowsTheNewestDriver() {
        withScheduler { scheduler in
            let a = scheduler.createColdObservable([.next(10, 1), .next(50, 2)])
            let b = scheduler.createColdObservable([.next(10, 3), .error(20, TestError(1))])
            let outer = scheduler.createHotObservable([
                .next(210, a.asDriver(onErrorJustReturn: -1)),
                .next(240, b.asDriver(onErrorJustReturn: -2)),
            ])
            let res = scheduler.start { outer.asDriver(onErrorJustReturn: .never()).switchLatest() }
            XCTAssertEqual(res.events, [.next(220, 1), .next(250, 3), .next(260, -2)])
            XCTAssertEqual(a.subscriptions, [Subscription(210, 240)])
            XCTAssertEqual(b.subscriptions, [Subscription(240, 260)])
        }
    }

    func testMergeOfACollection() {
        withScheduler { scheduler in
            let a = scheduler.createHotObservable([.next(210, 1), .completed(230)])
            let b = scheduler.createHotObservable([.next(220, 2), .error(240, TestError(1))])
            let res = scheduler.start {
                Driver.merge([a.asDriver(onErrorJustReturn: -1), b.asDriver(onErrorJustReturn: -2)])
            }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, -2), .completed(240)])
            let c = scheduler.createHotObservable([.next(1210, 1)])
            let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
                Signal.merge(c.asSignal(onErrorJustReturn: 0), .never())
            }
            XCTAssertEqual(disposed.events, [.next(1210, 1)])
            XCTAssertEqual(c.subscriptions, [Subscription(1200, 1300)])
        }
    }

    func testDebounceThrottleAndDelayRunOnTheSharingScheduler() {
        withScheduler { scheduler in
            let xs = scheduler.createHotObservable([
                .next(210, 1), .next(215, 2), .next(240, 3), .error(300, TestError(1)),
            ])
            let debounced = scheduler.start { xs.asDriver(onErrorJustReturn: 0).debounce(.seconds(10)) }
            XCTAssertEqual(debounced.events, [.next(225, 2), .next(250, 3), .next(300, 0), .completed(300)])
            let ys = scheduler.createHotObservable([.next(1210, 1), .next(1215, 2), .next(1240, 3), .completed(1300)])
            let throttled = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                ys.asDriver(onErrorJustReturn: 0).throttle(.seconds(20), latest: false)
            }
            XCTAssertEqual(throttled.events, [.next(1210, 1), .next(1240, 3), .completed(1300)])
            let zs = scheduler.createHotObservable([.next(2210, 1), .next(2298, 2)])
            let delayed = scheduler.start(created: 2100, subscribed: 2200, disposed: 2300) {
                zs.asSignal(onErrorJustReturn: 0).delay(.seconds(5))
            }
            XCTAssertEqual(delayed.events, [.next(2215, 1)], "disposed before the second element's delivery")
            XCTAssertEqual(zs.subscriptions, [Subscription(2200, 2300)])
        }
    }

    func testDeferredIntervalAndTimer() {
        withScheduler { scheduler in
            let calls = Recorder<Int>()
            let deferred = Driver<Int>.deferred {
                calls.append(scheduler.clock)
                return .just(calls.count)
            }
            XCTAssertEqual(scheduler.start { deferred }.events, [.next(200, 1), .completed(200)])
            XCTAssertEqual(
                scheduler.start(created: 1100, subscribed: 1200, disposed: 1235) { Driver<Int>.interval(.seconds(10)) }.events,
                [.next(1210, 0), .next(1220, 1), .next(1230, 2)]
            )
            XCTAssertEqual(
                scheduler.start(created: 2100, subscribed: 2200, disposed: 2250) {
                    Signal<Int>.timer(.seconds(5), period: .seconds(20))
                }.events,
                [.next(2205, 0), .next(2225, 1), .next(2245, 2)]
            )
            XCTAssertEqual(calls.values, [200])
        }
    }
}
