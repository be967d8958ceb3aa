import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// Arguments written with leading-dot syntax compile and behave as the generic forms.
final class LeadingDotOverloadsTests: LeakCheckingTestCase {
    func testIfEmptySwitchToALeadingDotObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.empty().ifEmpty(switchTo: .just(1)) }
        XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
        let nonEmpty = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable.just(5).ifEmpty(switchTo: .just(1))
        }
        XCTAssertEqual(nonEmpty.events, [.next(1200, 5), .completed(1200)])
    }

    func testConcatAmbAndMergeWithLeadingDotArguments() {
        let scheduler = TestScheduler(initialClock: 0)
        let concat = scheduler.start { Observable.just(1).concat(.of(2, 3)) }
        XCTAssertEqual(concat.events, [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
        let amb = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Observable<Int>.never().amb(.just(9))
        }
        XCTAssertEqual(amb.events, [.next(1200, 9), .completed(1200)])
        let merged = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            Observable.just(1).merge(with: .just(2))
        }
        XCTAssertEqual(merged.events, [.next(2200, 1), .next(2200, 2), .completed(2200)])
    }

    func testTimeoutSwitchesToALeadingDotFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, 1)])
        let res = scheduler.start { xs.timeout(.seconds(20), other: .just(0), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 0), .completed(220)])
    }
}
