import Reactive
import TestSupport
import XCTest

/// RxTest's `==` for `MaybeEvent` and `CompletableEvent`: errors compare as `Event`'s do.
final class TraitEventEqualityTests: LeakCheckingTestCase {
    /// An error that is not `Equatable`: compared by its description.
    private struct Described: Error { let reason: String }

    func testMaybeEventsCompareTheirCaseElementAndError() {
        XCTAssertEqual(MaybeEvent.success(1), .success(1))
        XCTAssertNotEqual(MaybeEvent.success(1), .success(2))
        XCTAssertEqual(MaybeEvent<Int>.completed, .completed)
        XCTAssertEqual(MaybeEvent<Int>.error(TestError(1)), .error(TestError(1)))
        XCTAssertNotEqual(MaybeEvent<Int>.error(TestError(1)), .error(TestError(2)))
        XCTAssertEqual(MaybeEvent<Int>.error(Described(reason: "a")), .error(Described(reason: "a")))
        XCTAssertNotEqual(MaybeEvent<Int>.error(Described(reason: "a")), .error(Described(reason: "b")))
        XCTAssertNotEqual(MaybeEvent.success(1), .completed)
        XCTAssertNotEqual(MaybeEvent<Int>.completed, .error(TestError(1)))
    }

    func testCompletableEventsCompareTheirCaseAndError() {
        XCTAssertEqual(CompletableEvent.completed, .completed)
        XCTAssertEqual(CompletableEvent.error(TestError(3)), .error(TestError(3)))
        XCTAssertNotEqual(CompletableEvent.error(TestError(3)), .error(TestError(4)))
        XCTAssertNotEqual(CompletableEvent.error(TestError(3)), .error(ReactiveError.timeout))
        XCTAssertNotEqual(CompletableEvent.completed, .error(TestError(3)))
    }

    func testEventsAsTheTraitsDeliverThemCompareAsLists() {
        let maybes = Recorder<MaybeEvent<Int>>()
        Maybe.just(1).subscribe { maybes.append($0) }
        Maybe<Int>.empty().subscribe { maybes.append($0) }
        Maybe<Int>.error(TestError(5)).subscribe { maybes.append($0) }
        XCTAssertEqual(maybes.values, [.success(1), .completed, .error(TestError(5))])

        let completables = Recorder<CompletableEvent>()
        Completable.empty().subscribe { completables.append($0) }
        Completable.error(TestError(6)).subscribe { completables.append($0) }
        XCTAssertEqual(completables.values, [.completed, .error(TestError(6))])
    }
}
