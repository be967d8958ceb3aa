import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// `retry(when:)` generic over the error type, as RxSwift's `retry(when:)` with a typed handler.
final class RetryWhenTypedTests: LeakCheckingTestCase {
    enum CustomError: Error, Equatable { case transient(Int) }

    func testTheHandlerSeesTypedErrorsAndEachOfItsElementsRetries() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, CustomError.transient(7))])
        let seen = Recorder<Int>()
        let res = scheduler.start {
            xs.retry { (errors: Observable<CustomError>) in
                errors.map { error -> Int in
                    if case .transient(let code) = error { seen.append(code) }
                    return 0
                }.take(2)
            }
        }
        let untyped = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.retry(when: { errors in errors.map { _ in 0 }.take(2) })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1), .completed(260)])
        XCTAssertEqual(res.events.map { $0.time + 1000 }, untyped.events.map(\.time), "the same timeline as the untyped form")
        XCTAssertEqual(seen.values, [7, 7], "the third error comes after the handler's sequence ended")
    }

    func testAnErrorOfAnotherTypeIsNotRetried() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start {
            xs.retry { (errors: Observable<CustomError>) in errors.map { _ in 0 } }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAnUntypedHandlerStillPicksTheAnyErrorForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry(when: { errors in errors.take(1) }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .completed(240)])
    }
}
