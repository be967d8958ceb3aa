import Foundation
import Reactive
import TestSupport
import XCTest

private let count = 5_000

/// `0..<count` sent from a queue of its own.
private func counting(_ label: String) -> Observable<Int> {
    Observable.create { observer in
        let cancelled = BooleanDisposable()
        DispatchQueue(label: label).async {
            for value in 0..<count where !cancelled.isDisposed { observer.onNext(value) }
            observer.onCompleted()
        }
        return cancelled
    }
}

/// `zip` and `combineLatest` with sources on two threads: results keep the order in which their
/// inputs were paired, and the observer is never called on two threads at once.
final class ZipStressTests: LeakCheckingTestCase {
    func testStressZipOfTwoThreadsKeepsPairsInOrder() {
        for _ in 0..<3 {
            let pairs = Recorder<Int>()
            let completed = Recorder<Int>()
            let overlap = OverlapDetector()
            let subscription = Observable.zip(counting("left"), counting("right")) { left, right -> Int in
                left == right ? left : -1
            }
            .subscribe(onNext: { value in overlap.run { pairs.append(value) } },
                       onCompleted: { overlap.run { completed.append(pairs.count) } })
            XCTAssertTrue(waitUntil(timeout: 30) { completed.count == 1 })
            subscription.dispose()
            XCTAssertEqual(pairs.values, Array(0..<count), "pairs out of order or mismatched")
            XCTAssertEqual(completed.values, [count])
            XCTAssertEqual(overlap.count, 0)
        }
    }

    func testStressCombineLatestOfTwoThreadsSeesEachSidesValuesInOrder() {
        let lefts = Recorder<Int>()
        let rights = Recorder<Int>()
        let completed = Recorder<Int>()
        let overlap = OverlapDetector()
        let subscription = Observable.combineLatest(counting("left"), counting("right"))
            .subscribe(onNext: { left, right in overlap.run { lefts.append(left); rights.append(right) } },
                       onCompleted: { overlap.run { completed.append(1) } })
        XCTAssertTrue(waitUntil(timeout: 30) { completed.count == 1 })
        subscription.dispose()
        XCTAssertEqual(lefts.values, lefts.values.sorted(), "the left values went backwards")
        XCTAssertEqual(rights.values, rights.values.sorted(), "the right values went backwards")
        XCTAssertEqual(lefts.values.last, count - 1)
        XCTAssertEqual(rights.values.last, count - 1)
        XCTAssertEqual(overlap.count, 0)
    }
}
