import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class WindowTests: LeakCheckingTestCase {
    /// Subscribes every window as it arrives and records "window:element@tick" and the ends.
    private static func record(
        _ windows: Observable<Observable<Int>>, scheduler: TestScheduler, into log: Recorder<String>
    ) -> Observable<String> {
        let counter = Recorder<Int>()
        return windows.map { window -> String in
            let index = counter.count
            counter.append(index)
            _ = window.subscribe(
                onNext: { log.append("w\(index):\($0)@\(scheduler.clock)") },
                onError: { _ in log.append("w\(index):error@\(scheduler.clock)") },
                onCompleted: { log.append("w\(index):completed@\(scheduler.clock)") }
            )
            return "w\(index)"
        }
    }

    func testOpensWindowsAtSubscriptionByCountAndByTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(280, 4), .next(350, 5), .completed(420),
        ])
        let log = Recorder<String>()
        let res = scheduler.start { Self.record(xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler), scheduler: scheduler, into: log) }
        XCTAssertEqual(res.events, [
            .next(200, "w0"), .next(230, "w1"), .next(300, "w2"), .next(370, "w3"), .completed(420),
        ])
        XCTAssertEqual(log.values, [
            "w0:1@210", "w0:2@220", "w0:3@230", "w0:completed@230",
            "w1:4@280", "w1:completed@300",
            "w2:5@350", "w2:completed@370",
            "w3:completed@420",
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 420)])
    }

    func testAnErrorFailsTheCurrentWindowAndTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let log = Recorder<String>()
        let res = scheduler.start { Self.record(xs.window(timeSpan: .seconds(100), count: 5, scheduler: scheduler), scheduler: scheduler, into: log) }
        XCTAssertEqual(res.events, [.next(200, "w0"), .error(250, TestError(1))])
        XCTAssertEqual(log.values, ["w0:1@210", "w0:error@250"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDisposingTheOuterSubscriptionWithNoWindowSubscribedStopsTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        let res = scheduler.start(disposed: 350) { xs.window(timeSpan: .seconds(100), count: 5, scheduler: scheduler).map { _ in "w" } }
        XCTAssertEqual(res.events, [.next(200, "w"), .next(300, "w")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
    }

    func testASubscribedWindowKeepsTheSourceAfterTheOuterSubscriptionIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .next(400, 4)])
        let seen = Recorder<String>()
        let windowSubscription = SerialDisposable()
        let outer = xs.window(timeSpan: .seconds(1000), count: 10, scheduler: scheduler).subscribe(onNext: { window in
            windowSubscription.disposable = window.subscribe(onNext: { seen.append("\($0)@\(scheduler.clock)") })
        })
        scheduler.scheduleAt(215) { outer.dispose() }
        scheduler.scheduleAt(300) { windowSubscription.dispose() }
        scheduler.start()
        XCTAssertEqual(seen.values, ["1@210", "2@220", "3@240"])
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 300)])
    }

    // RxSwift's own window timelines (Observable+WindowTests), ported unchanged.
    private static let rxSwiftEvents: [Recorded<Event<Int>>] = [
        .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
        .next(350, 6), .next(370, 7), .next(420, 8), .next(470, 9),
    ]

    private static func indexed(_ windows: Observable<Observable<Int>>) -> Observable<String> {
        windows.enumerated().map { window in window.element.map { "\(window.index) \($0)" } }.merge()
    }

    private static let rxSwiftResult: [Recorded<Event<String>>] = [
        .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"), .next(320, "2 5"),
        .next(350, "2 6"), .next(370, "2 7"), .next(420, "3 8"), .next(470, "4 9"),
    ]

    func testRxSwiftsBasicTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.rxSwiftEvents + [.completed(600)])
        let res = scheduler.start { Self.indexed(xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)) }
        XCTAssertEqual(res.events, Self.rxSwiftResult + [.completed(600)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testRxSwiftsErrorTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Self.rxSwiftEvents + [.error(600, TestError(1))])
        let res = scheduler.start { Self.indexed(xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)) }
        XCTAssertEqual(res.events, Self.rxSwiftResult + [.error(600, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testRxSwiftsDisposedTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(105, 0)] + Self.rxSwiftEvents + [.completed(600)])
        let res = scheduler.start(disposed: 370) { Self.indexed(xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)) }
        XCTAssertEqual(res.events, Array(Self.rxSwiftResult.prefix(7)))
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 370)])
    }

    func testAZeroTimeSpanOnASourceThatEndsAtOnceReleasesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let windows = Recorder<Int>()
        _ = Observable.just(1).window(timeSpan: .zero, count: 10, scheduler: scheduler).subscribe(onNext: { _ in windows.append(1) })
        scheduler.start()
        XCTAssertEqual(windows.count, 1)
    }
}
