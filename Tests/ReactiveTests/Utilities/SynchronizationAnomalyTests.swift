import Dispatch
import Foundation
import Reactive
import TestSupport
import XCTest

/// Debug builds report events that overlap in a sink, as RxSwift's do: from two threads at once,
/// or re-entrantly on one. Each test makes the overlap happen for certain (the first delivery
/// waits until the second one has gone through), then reads the reports from `DebugLog.output`.
final class SynchronizationAnomalyTests: LeakCheckingTestCase {
    private var capture: DebugLogCapture?
    private var lines: Recorder<String> { capture?.lines ?? Recorder() }

    override func setUpWithError() throws {
        try super.setUpWithError()
        #if !DEBUG
        throw XCTSkip("overlaps are checked in debug builds only")
        #endif
        capture = DebugLogCapture()
    }

    override func tearDown() {
        capture?.restore()
        super.tearDown()
    }

    /// The first line of each report.
    private var headings: [String] {
        lines.values.map { String($0.prefix(while: { $0 != "\n" })) }
    }

    func testTwoThreadsEmittingIntoCreateAtOnceAreReportedNamingEachOperator() {
        let observers = Recorder<AnyObserver<Int>>()
        let received = Recorder<Int>()
        let firstInside = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        let subscription = Observable<Int>.create { observer in
            observers.append(observer)
            return Disposables.create()
        }
        .map { $0 * 10 }
        .subscribe(onNext: { value in
            received.append(value)
            guard value == 10 else { return }
            // The first thread stays inside its delivery until the second one has emitted.
            firstInside.signal()
            XCTAssertEqual(secondDone.wait(timeout: .now() + 10), .success)
        })
        guard let observer = observers.values.first else { return XCTFail("create did not run") }
        let both = DispatchGroup()
        DispatchQueue.global().async(group: both) { observer.onNext(1) }
        DispatchQueue.global().async(group: both) {
            XCTAssertEqual(firstInside.wait(timeout: .now() + 10), .success)
            observer.onNext(2)
            secondDone.signal()
        }
        XCTAssertEqual(both.wait(timeout: .now() + 10), .success)
        subscription.dispose()

        XCTAssertEqual(headings, [
            "⚠️ Synchronization anomaly was detected in `create` (CreateSink<Int>).",
            "⚠️ Synchronization anomaly was detected in `map` (MapSink<Int, Int>).",
        ])
        XCTAssertTrue(lines.values.first?.contains("two threads sent it events at once") ?? false)
        // The report does not drop the event: both went through.
        XCTAssertEqual(Set(received.values), [10, 20])
    }

    func testAReentrantEmissionIntoCreateIsReported() {
        let slot = ObserverSlot()
        let received = Recorder<Int>()
        let subscription = Observable<Int>.create { observer in
            slot.observer = observer
            observer.onNext(1)
            return Disposables.create()
        }
        .subscribe(onNext: { value in
            received.append(value)
            // The observer feeds its own source while the first event is still being delivered.
            if value == 1 { slot.observer?.onNext(2) }
        })
        subscription.dispose()
        slot.observer = nil

        XCTAssertEqual(headings, ["⚠️ Reentrancy anomaly was detected in `create` (CreateSink<Int>)."])
        XCTAssertTrue(lines.values.first?.contains("while it was still delivering the previous one") ?? false)
        XCTAssertEqual(received.values, [1, 2])
    }

    func testEventsFromTwoThreadsOneAfterTheOtherAreNotReported() {
        let observers = Recorder<AnyObserver<Int>>()
        let received = Recorder<Int>()
        let subscription = Observable<Int>.create { observer in
            observers.append(observer)
            return Disposables.create()
        }
        .map { $0 + 1 }
        .subscribe(onNext: { received.append($0) })
        guard let observer = observers.values.first else { return XCTFail("create did not run") }
        for value in 0..<2 {
            // Each emission finishes (the group waits for it) before the next thread starts.
            let one = DispatchGroup()
            DispatchQueue.global().async(group: one) { observer.onNext(value) }
            XCTAssertEqual(one.wait(timeout: .now() + 10), .success)
        }
        subscription.dispose()

        XCTAssertEqual(received.values, [1, 2])
        XCTAssertEqual(lines.values, [])
    }

    func testASubjectFedByItsOwnObserverIsNotReportedBecauseItQueuesTheEvent() {
        let subject = PublishSubject<Int>()
        let received = Recorder<Int>()
        let subscription = subject.map { $0 }.subscribe(onNext: { value in
            received.append(value)
            if value == 1 { subject.onNext(2) }
        })
        subject.onNext(1)
        subscription.dispose()

        XCTAssertEqual(received.values, [1, 2])
        XCTAssertEqual(lines.values, [])
    }
}

/// The observer `create` handed out, kept where the subscriber can reach it and released after.
// @unchecked: `observer` is guarded by `lock`.
private final class ObserverSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: AnyObserver<Int>?

    var observer: AnyObserver<Int>? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
