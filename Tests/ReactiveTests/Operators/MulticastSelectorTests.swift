import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's `testMulticast_Cold_*` and selector-throw cases.
final class MulticastSelectorTests: LeakCheckingTestCase {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(40, 0), .next(90, 1), .next(150, 2), .next(210, 3), .next(240, 4), .next(270, 5),
            .next(330, 6), .next(340, 7), end,
        ])
    }

    func testColdCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(390))
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }) { $0 } }
        XCTAssertEqual(res.events, [.next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7), .completed(390)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
    }

    func testColdError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(390, TestError(1)))
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }) { $0 } }
        XCTAssertEqual(res.events, [.next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7), .error(390, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
    }

    func testColdDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(390))
        let res = scheduler.start(disposed: 300) { xs.multicast({ PublishSubject<Int>() }) { $0 } }
        XCTAssertEqual(res.events, [.next(210, 3), .next(240, 4), .next(270, 5)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testColdZipSubscribesTheSourceOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(390))
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }) { shared in Observable.zip(shared, shared) { $0 + $1 } }
        }
        XCTAssertEqual(res.events, [.next(210, 6), .next(240, 8), .next(270, 10), .next(330, 12), .next(340, 14), .completed(390)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
    }

    func testEachSubscriptionGetsItsOwnSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let made = Recorder<Int>()
        let shared = xs.multicast({ () -> ReplaySubject<Int> in
            made.append(1)
            return ReplaySubject.create(bufferSize: 1)
        }) { $0 }
        let first = scheduler.start { shared }
        let second = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { shared }
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(1210, 1), .completed(1220)])
        XCTAssertEqual(made.count, 2)
    }

    func testASubjectSelectorThatThrowsFailsTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(390))
        let res = scheduler.start {
            xs.multicast({ () throws -> PublishSubject<Int> in throw TestError(2) }) { $0 }
        }
        XCTAssertEqual(res.events, [.error(200, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testASelectorThatThrowsFailsTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(390))
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }) { _ -> Observable<Int> in throw TestError(3) }
        }
        XCTAssertEqual(res.events, [.error(200, TestError(3))])
        XCTAssertEqual(xs.subscriptions, [])
    }
}
