import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// Long chains of synchronous sources loop instead of recursing, as RxSwift's tail-recursive
/// sinks do: 100,000 sources that end at subscription do not exhaust the stack.
final class RxSwiftEdgeRulesStackTests: LeakCheckingTestCase {
    func testConcatOfManySynchronousCreateSources() {
        let sources = (0..<100_000).map { _ in
            Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onCompleted()
                return Disposables.create()
            }
        }
        let total = Recorder<Int>()
        _ = Observable.concat(sources).reduce(0, accumulator: +).subscribe(onNext: { total.append($0) })
        XCTAssertEqual(total.values, [100_000])
    }

    func testCatchSequenceOfManyFailingCreateSources() {
        let sources = (0..<100_000).map { _ in
            Observable<Int>.create { observer in
                observer.onError(TestError(1))
                return Disposables.create()
            }
        } + [Observable.just(5)]
        let total = Recorder<Int>()
        _ = Observable.catch(sequence: sources).subscribe(onNext: { total.append($0) })
        XCTAssertEqual(total.values, [5])
    }

    func testRetryOfManySynchronousFailures() {
        let count = Recorder<Int>()
        let source = Observable<Int>.create { observer in
            count.append(1)
            observer.onError(TestError(1))
            return Disposables.create()
        }
        let errors = Recorder<Int>()
        _ = source.retry(100_000).subscribe(onError: { _ in errors.append(1) })
        XCTAssertEqual(count.count, 100_000)
        XCTAssertEqual(errors.count, 1)
    }
}
