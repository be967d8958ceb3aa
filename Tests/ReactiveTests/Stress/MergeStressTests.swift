import Foundation
import Reactive
import TestSupport
import XCTest

private let inners = 8
private let perInner = 2_000

/// A sequence that sends `perInner` stamps for `sender` from its own serial queue; `emitting`,
/// when given, is left once that queue has sent its last event.
private func inner(_ sender: Int, emitting: DispatchGroup? = nil) -> Observable<Stamp> {
    Observable.create { observer in
        let queue = DispatchQueue(label: "inner-\(sender)")
        let cancelled = BooleanDisposable()
        queue.async(group: emitting) {
            for sequence in 0..<perInner where !cancelled.isDisposed {
                observer.onNext(Stamp(sender: sender, sequence: sequence, global: 0))
            }
            observer.onCompleted()
        }
        return cancelled
    }
}

/// `flatMap` and `merge` with inner sequences emitting on their own queues.
final class MergeStressTests: LeakCheckingTestCase {
    func testStressFlatMapSerializesInnerSequencesFromManyQueues() {
        let stamps = Recorder<Stamp>()
        let completions = Recorder<Int>()
        let overlap = OverlapDetector()
        let subscription = Observable.range(start: 0, count: inners)
            .flatMap { inner($0) }
            .subscribe(onNext: { stamp in overlap.run { stamps.append(stamp) } },
                       onCompleted: { overlap.run { completions.append(stamps.count) } })
        XCTAssertTrue(waitUntil(timeout: 30) { completions.count == 1 })
        subscription.dispose()
        assertCompletePerSenderOrder(stamps.values, senders: inners, perSender: perInner, "flatMap")
        XCTAssertEqual(completions.values, [inners * perInner], "completion comes after every element")
        XCTAssertEqual(overlap.count, 0, "flatMap must not call its observer on two threads at once")
    }

    func testStressMergeSerializesSourcesFromManyQueues() {
        let stamps = Recorder<Stamp>()
        let completions = Recorder<Int>()
        let overlap = OverlapDetector()
        let subscription = Observable.merge((0..<inners).map { inner($0) })
            .subscribe(onNext: { stamp in overlap.run { stamps.append(stamp) } },
                       onCompleted: { overlap.run { completions.append(stamps.count) } })
        XCTAssertTrue(waitUntil(timeout: 30) { completions.count == 1 })
        subscription.dispose()
        assertCompletePerSenderOrder(stamps.values, senders: inners, perSender: perInner, "merge")
        XCTAssertEqual(completions.values, [inners * perInner])
        XCTAssertEqual(overlap.count, 0, "merge must not call its observer on two threads at once")
    }

    func testStressDisposingFlatMapWhileInnersEmitStopsThem() {
        for _ in 0..<20 {
            let stamps = Recorder<Stamp>()
            let overlap = OverlapDetector()
            let emitting = DispatchGroup()
            let subscription = Observable.range(start: 0, count: inners)
                .flatMap { inner($0, emitting: emitting) }
                .subscribe(onNext: { stamp in overlap.run { stamps.append(stamp) } })
            _ = waitUntil(timeout: 5) { stamps.count > 100 }
            subscription.dispose()
            let atDispose = stamps.count
            // A late element would be sent before its inner's queue finishes emitting.
            XCTAssertEqual(emitting.wait(timeout: .now() + 10), .success)
            XCTAssertLessThanOrEqual(stamps.count, atDispose + inners, "at most one in-flight element per inner after dispose")
            assertPerSenderOrder(stamps.values, "flatMap disposed")
            XCTAssertEqual(overlap.count, 0)
        }
    }
}
