import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class CatchSequenceTests: LeakCheckingTestCase {
    func testMovesToTheNextSourceOnErrorAndCompletesWithTheFirstThatCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let zs = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.catch(sequence: [xs.asObservable(), ys.asObservable(), zs.asObservable()]) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(zs.subscriptions, [])
    }

    func testAllFailingEndsWithTheLastError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, TestError(1))] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(5, 2), .error(10, TestError(2))])
        let res = scheduler.start { Observable.catch(sequence: [xs.asObservable(), ys.asObservable()]) }
        XCTAssertEqual(res.events, [.next(215, 2), .error(220, TestError(2))])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
    }

    func testAnEmptySequenceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.catch(sequence: []) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testDisposeStopsTheCurrentSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, TestError(1))] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, 2), .next(900, 3)])
        let res = scheduler.start { Observable.catch(sequence: [xs.asObservable(), ys.asObservable()]) }
        XCTAssertEqual(res.events, [.next(220, 2)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 1000)])
    }

    func testSynchronousFailuresDoNotRecurse() {
        let sources = (0..<10_000).map { Observable<Int>.error(TestError($0)) } + [Observable.just(1)]
        let values = Recorder<Int>()
        _ = Observable.catch(sequence: sources).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [1])
    }

    func testRetryForeverResubscribesUntilCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let attempts = Recorder<Int>()
        let res = scheduler.start {
            Observable<Int>.deferred {
                attempts.append(1)
                return attempts.count < 50 ? .error(TestError(attempts.count)) : .just(attempts.count)
            }
            .retry()
        }
        XCTAssertEqual(res.events, [.next(200, 50), .completed(200)])
        XCTAssertEqual(attempts.count, 50)
    }

    func testRetryForeverDisposedStopsResubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start(disposed: 265) { xs.retry() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260), Subscription(260, 265)])
    }
}
