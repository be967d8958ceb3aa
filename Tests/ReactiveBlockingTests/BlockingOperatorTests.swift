import Foundation
import Reactive
import ReactiveBlocking
import TestSupport
import XCTest

/// RxBlocking's documented results for `toArray`, `first`, `last`, `single` and `materialize`:
/// elements, empty sequences, errors, and what comes after an error.
final class BlockingOperatorTests: LeakCheckingTestCase {
    func testToArrayReturnsEveryElementOnceCompleted() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Observable<Int>.empty().toBlocking().toArray(), [])
    }

    func testToArrayThrowsTheErrorEvenAfterElements() {
        let failing = Observable.of(1, 2).concat(Observable.error(TestError(7)))
        XCTAssertThrowsError(try failing.toBlocking().toArray()) { XCTAssertEqual($0 as? TestError, TestError(7)) }
    }

    func testFirstReturnsTheFirstElementAndDisposesTheSubscriptionAtOnce() throws {
        let disposed = Recorder<Bool>()
        let endless = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create { disposed.append(true) }
        }
        XCTAssertEqual(try endless.toBlocking().first(), 1)
        XCTAssertEqual(disposed.values, [true], "first() must not wait for the end of the sequence")
    }

    func testFirstOfAnEmptySequenceIsNilAndAnErrorBeforeAnElementIsThrown() throws {
        XCTAssertNil(try Observable<Int>.empty().toBlocking().first())
        XCTAssertThrowsError(try Observable<Int>.error(TestError(1)).toBlocking().first()) {
            XCTAssertEqual($0 as? TestError, TestError(1))
        }
        // An error after the first element is never seen: the wait ended with the element.
        XCTAssertEqual(try Observable.just(5).concat(Observable.error(TestError(2))).toBlocking().first(), 5)
    }

    func testLastReturnsTheLastElementOrNilAndThrowsTheError() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().last(), 3)
        XCTAssertNil(try Observable<Int>.empty().toBlocking().last())
        XCTAssertThrowsError(try Observable.of(1, 2).concat(Observable.error(TestError(3))).toBlocking().last()) {
            XCTAssertEqual($0 as? TestError, TestError(3))
        }
    }

    func testSingleNeedsExactlyOneElement() throws {
        XCTAssertEqual(try Observable.just(42).toBlocking().single(), 42)
        XCTAssertThrowsError(try Observable<Int>.empty().toBlocking().single()) {
            XCTAssertEqual($0 as? ReactiveError, .noElements)
        }
        XCTAssertThrowsError(try Observable.of(1, 2, 3).toBlocking().single()) {
            XCTAssertEqual($0 as? ReactiveError, .moreThanOneElement)
        }
        XCTAssertThrowsError(try Observable<Int>.error(TestError(4)).toBlocking().single()) {
            XCTAssertEqual($0 as? TestError, TestError(4))
        }
    }

    func testSingleStopsAtTheSecondElementOfAnEndlessSequence() {
        let disposed = Recorder<Bool>()
        let endless = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create { disposed.append(true) }
        }
        XCTAssertThrowsError(try endless.toBlocking(timeout: 5).single()) {
            XCTAssertEqual($0 as? ReactiveError, .moreThanOneElement)
        }
        XCTAssertEqual(disposed.values, [true])
    }

    func testSingleWithAPredicateCountsOnlyTheMatchingElements() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3, 4).toBlocking().single { $0 == 3 }, 3)
        XCTAssertThrowsError(try Observable.of(1, 2, 3, 4).toBlocking().single { $0 > 4 }) {
            XCTAssertEqual($0 as? ReactiveError, .noElements)
        }
        XCTAssertThrowsError(try Observable.of(1, 2, 3, 4).toBlocking().single { $0 % 2 == 0 }) {
            XCTAssertEqual($0 as? ReactiveError, .moreThanOneElement)
        }
    }

    func testAThrowingPredicateEndsTheWaitWithItsError() {
        let seen = Recorder<Int>()
        XCTAssertThrowsError(try Observable.of(1, 2, 3).toBlocking().single { element in
            seen.append(element)
            if element == 2 { throw TestError(9) }
            return false
        }) { XCTAssertEqual($0 as? TestError, TestError(9)) }
        XCTAssertEqual(seen.values, [1, 2], "the predicate is not called after it threw")
    }

    func testMaterializeKeepsTheElementsBeforeTheEnd() {
        guard case .completed(let elements) = Observable.of(1, 2).toBlocking().materialize() else {
            return XCTFail("expected .completed")
        }
        XCTAssertEqual(elements, [1, 2])

        guard case .failed(let before, let error) = Observable.of(1, 2).concat(Observable.error(TestError(5)))
            .toBlocking().materialize() else { return XCTFail("expected .failed") }
        XCTAssertEqual(before, [1, 2])
        XCTAssertEqual(error as? TestError, TestError(5))
    }

    func testElementsAfterAnErrorAreIgnored() {
        // A source that breaks the grammar: nothing after its error may count.
        let unruly = UnrulyObservable(events: [.next(1), .error(TestError(6)), .next(2), .completed])
        guard case .failed(let elements, let error) = unruly.toBlocking().materialize() else {
            return XCTFail("expected .failed")
        }
        XCTAssertEqual(elements, [1])
        XCTAssertEqual(error as? TestError, TestError(6))
        XCTAssertThrowsError(try unruly.toBlocking().toArray()) { XCTAssertEqual($0 as? TestError, TestError(6)) }
    }

    func testTraitsBlockToo() throws {
        XCTAssertEqual(try Single.just(3).toBlocking().single(), 3)
        XCTAssertEqual(try Maybe<Int>.empty().toBlocking().toArray(), [])
        XCTAssertNil(try Completable.empty().toBlocking().first())
        XCTAssertThrowsError(try Completable.error(TestError(8)).toBlocking().first()) {
            XCTAssertEqual($0 as? TestError, TestError(8))
        }
        XCTAssertEqual(try Infallible.from([1, 2]).toBlocking().toArray(), [1, 2])
    }

    func testEachOperatorSubscribesAnew() throws {
        let subscriptions = Recorder<Int>()
        let counted = Observable<Int>.deferred {
            subscriptions.append(1)
            return .of(1, 2)
        }
        let blocking = counted.toBlocking()
        XCTAssertEqual(try blocking.toArray(), [1, 2])
        XCTAssertEqual(try blocking.last(), 2)
        XCTAssertEqual(subscriptions.count, 2)
    }
}

/// Sends its events as given, grammar or not, to each subscriber.
struct UnrulyObservable: ObservableType {
    typealias Element = Int
    let events: [Event<Int>]

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Int {
        for event in events { observer.on(event) }
        return Disposables.create()
    }
}
