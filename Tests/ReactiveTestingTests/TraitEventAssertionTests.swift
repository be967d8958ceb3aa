import Reactive
@testable import ReactiveTesting
import TestSupport
import XCTest

/// RxTest's assertions over the traits' events: `XCTAssertEqual` over `[SingleEvent]` (a `Result`,
/// which cannot be `Equatable`) and the recorded forms of `MaybeEvent` and `CompletableEvent`.
final class TraitEventAssertionTests: LeakCheckingTestCase {
    func testSingleEventListsCompareElementsErrorsAndLength() {
        let outcomes = Recorder<SingleEvent<Int>>()
        Single.just(1).subscribe { outcomes.append($0) }
        Single<Int>.error(TestError(2)).subscribe { outcomes.append($0) }
        XCTAssertEqual(outcomes.values, [.success(1), .failure(TestError(2))])

        let one: [SingleEvent<Int>] = [.success(1)]
        XCTAssertTrue(singleEventsAreEqual([SingleEvent<Int>](), []))
        XCTAssertTrue(singleEventsAreEqual(one, [.success(1)]))
        XCTAssertFalse(singleEventsAreEqual(one, [.success(2)]))
        XCTAssertFalse(singleEventsAreEqual([SingleEvent<Int>.failure(TestError(1))], [.failure(TestError(2))]))
        XCTAssertFalse(singleEventsAreEqual(one, [.failure(TestError(1))]))
        XCTAssertFalse(singleEventsAreEqual(one, [.success(1), .success(1)]))
    }

    func testRecordedSingleEventsCompareTheirTicksToo() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorded = Recorder<Recorded<SingleEvent<Int>>>()
        scheduler.scheduleAt(300) {
            Single.just(7).subscribe { recorded.append(Recorded(time: scheduler.clock, value: $0)) }
        }
        scheduler.start()
        XCTAssertEqual(recorded.values, [Recorded(time: 300, value: .success(7))])
        XCTAssertFalse(singleEventsAreEqual(recorded.values, [Recorded(time: 301, value: .success(7))]))
        XCTAssertFalse(singleEventsAreEqual(recorded.values, [Recorded(time: 300, value: .success(8))]))
        XCTAssertFalse(singleEventsAreEqual(recorded.values, []))
    }

    func testRecordedMaybeAndCompletableEventsAreEquatable() {
        let maybes: [Recorded<MaybeEvent<Int>>] = [Recorded(time: 210, value: .success(1)), Recorded(time: 220, value: .completed)]
        XCTAssertEqual(maybes, [Recorded(time: 210, value: .success(1)), Recorded(time: 220, value: .completed)])
        XCTAssertNotEqual(maybes, [Recorded(time: 210, value: .success(1)), Recorded(time: 221, value: .completed)])
        let completables: [Recorded<CompletableEvent>] = [Recorded(time: 230, value: .error(TestError(1)))]
        XCTAssertEqual(completables, [Recorded(time: 230, value: .error(TestError(1)))])
        XCTAssertNotEqual(completables, [Recorded(time: 230, value: .completed)])
    }
}
