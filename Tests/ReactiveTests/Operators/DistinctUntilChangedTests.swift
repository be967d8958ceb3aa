import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class DistinctUntilChangedTests: LeakCheckingTestCase {
    func testDropsElementsEqualToThePreviousOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 1), .next(230, 2), .next(240, 2), .next(250, 1), .completed(300),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(250, 1), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testKeySelectorComparesKeys() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "A"), .next(230, "b"), .completed(300)])
        let res = scheduler.start { xs.distinctUntilChanged { $0.lowercased() } }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(230, "b"), .completed(300)])
    }

    func testThrowingComparerErrorsAtTheThrowTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start {
            xs.distinctUntilChanged { (_: Int, _: Int) -> Bool in throw TestError(9) }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(9))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testPassesAnUpstreamErrorThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .error(230, TestError(1))])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDisposedAtThousandStopsUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(1010, 2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }
}

final class DistinctUntilChangedAtKeyPathTests: LeakCheckingTestCase {
    struct User: Equatable, Sendable {
        let name: String
        let visits: Int
    }

    func testComparesThePropertyAtTheKeyPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, User(name: "a", visits: 1)), .next(220, User(name: "a", visits: 2)),
            .next(230, User(name: "b", visits: 2)), .next(240, User(name: "a", visits: 3)), .completed(300),
        ])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.name) }
        XCTAssertEqual(res.events, [
            .next(210, User(name: "a", visits: 1)), .next(230, User(name: "b", visits: 2)),
            .next(240, User(name: "a", visits: 3)), .completed(300),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testErrorAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, User(name: "a", visits: 1)), .error(250, TestError(1))])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.visits) }
        XCTAssertEqual(res.events, [.next(210, User(name: "a", visits: 1)), .error(250, TestError(1))])

        let disposeScheduler = TestScheduler(initialClock: 0)
        let ys = disposeScheduler.createHotObservable([.next(210, User(name: "a", visits: 1)), .next(1100, User(name: "b", visits: 1))])
        let disposed = disposeScheduler.start { ys.distinctUntilChanged(at: \.name) }
        XCTAssertEqual(disposed.events, [.next(210, User(name: "a", visits: 1))])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }
}

final class DistinctUntilChangedKeyComparerTests: LeakCheckingTestCase {
    func testComparesKeysWithTheComparer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, "a"), .next(220, "A"), .next(230, "bb"), .next(240, "BB"), .next(250, "c"), .completed(300),
        ])
        let res = scheduler.start { xs.distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 }) }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(230, "bb"), .next(250, "c"), .completed(300)])
    }

    func testAThrowingComparerFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.distinctUntilChanged({ $0 }, comparer: { _, _ -> Bool in throw TestError(1) }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
