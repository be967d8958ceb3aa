import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class GroupByTests: LeakCheckingTestCase {
    private static func record(
        _ groups: Observable<GroupedObservable<String, Int>>, scheduler: TestScheduler, into log: Recorder<String>
    ) -> Observable<String> {
        groups.map { group -> String in
            _ = group.subscribe(
                onNext: { log.append("\(group.key):\($0)@\(scheduler.clock)") },
                onError: { _ in log.append("\(group.key):error@\(scheduler.clock)") },
                onCompleted: { log.append("\(group.key):completed@\(scheduler.clock)") }
            )
            return group.key
        }
    }

    func testEmitsAGroupPerNewKeyBeforeItsFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
        ])
        let log = Recorder<String>()
        let res = scheduler.start {
            Self.record(xs.groupBy { $0.isMultiple(of: 2) ? "even" : "odd" }, scheduler: scheduler, into: log)
        }
        XCTAssertEqual(res.events, [.next(210, "odd"), .next(220, "even"), .completed(300)])
        XCTAssertEqual(Array(log.values.prefix(4)), ["odd:1@210", "even:2@220", "odd:3@230", "even:4@240"])
        XCTAssertEqual(Set(log.values.suffix(2)), ["odd:completed@300", "even:completed@300"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testAnErrorFailsEveryGroupAndTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(250, TestError(1))])
        let log = Recorder<String>()
        let res = scheduler.start { Self.record(xs.groupBy { "\($0)" }, scheduler: scheduler, into: log) }
        XCTAssertEqual(res.events, [.next(210, "1"), .next(220, "2"), .error(250, TestError(1))])
        XCTAssertEqual(Set(log.values.suffix(2)), ["1:error@250", "2:error@250"])
    }

    func testAThrowingKeySelectorFailsEveryGroupAndTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let log = Recorder<String>()
        let res = scheduler.start {
            Self.record(xs.groupBy { value -> String in
                if value == 2 { throw TestError(2) }
                return "k"
            }, scheduler: scheduler, into: log)
        }
        XCTAssertEqual(res.events, [.next(210, "k"), .error(220, TestError(2))])
        XCTAssertEqual(log.values, ["k:1@210", "k:error@220"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDisposeWithoutSubscribedGroupsStopsTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        let res = scheduler.start { xs.groupBy { "\($0)" }.map(\.key) }
        XCTAssertEqual(res.events, [.next(210, "1")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testASubscribedGroupKeepsTheSourceAfterTheOuterSubscriptionIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 3), .next(230, 2), .next(240, 5), .next(400, 7)])
        let seen = Recorder<String>()
        let groupSubscription = SerialDisposable()
        let keys = Recorder<String>()
        let outer = xs.groupBy { $0.isMultiple(of: 2) ? "even" : "odd" }.subscribe(onNext: { group in
            keys.append(group.key)
            if group.key == "odd" {
                groupSubscription.disposable = group.subscribe(onNext: { seen.append("\($0)@\(scheduler.clock)") })
            }
        })
        scheduler.scheduleAt(215) { outer.dispose() }
        scheduler.scheduleAt(300) { groupSubscription.dispose() }
        scheduler.start()
        XCTAssertEqual(keys.values, ["odd"])
        XCTAssertEqual(seen.values, ["1@210", "3@220", "5@240"])
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 300)])
    }
}
