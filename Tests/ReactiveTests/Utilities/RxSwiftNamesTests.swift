import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's spellings that ported code uses as written: `skip(_:scheduler:)`,
/// `AnyObserver(eventHandler:)`, `RxError`, `asCompletable()` only on `Observable<Never>`, and
/// `Resources.total` as an `Int32`.
final class RxSwiftNamesTests: LeakCheckingTestCase {
    func testSkipWithAnUnlabelledDurationIsSkipFor() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 2), .next(230, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testAnyObserverWithAnEventHandler() {
        let events = Recorder<String>()
        let handler: AnyObserver<Int>.EventHandler = { events.append($0.debugDescription) }
        let observer = AnyObserver(eventHandler: handler)
        observer.onNext(1)
        observer.onCompleted()
        XCTAssertEqual(events.values, ["next(1)", "completed"])
    }

    func testRxErrorIsReactiveError() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.never().timeout(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(210, RxError.timeout)])
        XCTAssertThrowsError(try { () throws -> Void in throw ReactiveError.noElements }()) { error in
            guard case RxError.noElements? = error as? RxError else { return XCTFail("\(error) is not RxError.noElements") }
        }
    }

    func testAsCompletableInfersANeverElementFromTheScript() {
        let scheduler = TestScheduler(initialClock: 0)
        // RxSwift offers `asCompletable()` only where `Element == Never`: that is what lets the
        // script's element type be inferred here.
        let res = scheduler.start { scheduler.createColdObservable([.completed(20)]).asCompletable() }
        XCTAssertEqual(res.events, [.completed(220)])
        let failed = scheduler.start(created: 1_100, subscribed: 1_200, disposed: 2_000) {
            scheduler.createColdObservable([.error(5, TestError(2))]).asCompletable()
        }
        XCTAssertEqual(failed.events, [.error(1_205, TestError(2))])
    }

    func testOtherElementTypesBecomeCompletableThroughIgnoreElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.ignoreElements().asCompletable() }
        XCTAssertEqual(res.events, [.completed(250)])
        let single = scheduler.start(created: 1_100, subscribed: 1_200, disposed: 2_000) { Single.just(3).asCompletable() }
        XCTAssertEqual(single.events, [.completed(1_200)])
    }

    func testResourcesTotalIsAnInt32() {
        let start: Int32 = Resources.total
        let subject = PublishSubject<Int>()
        do {
            let subscription = subject.subscribe(onNext: { _ in })
            XCTAssertEqual(Resources.total, start + 2, "the subscriber and the subject's subscription")
            subscription.dispose()
        }
        XCTAssertEqual(Resources.total, start)
        let serialQueueObservations: Int32 = Resources.numberOfSerialDispatchQueueObservables
        XCTAssertGreaterThanOrEqual(serialQueueObservations, 0)
    }
}
