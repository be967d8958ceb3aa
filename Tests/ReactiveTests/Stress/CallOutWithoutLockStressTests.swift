import Foundation
import Reactive
import TestSupport
import XCTest

/// An observer captured from `Observable.create`, so a test can emit from the thread it chooses.
private final class CapturedObserver<Element: Sendable>: Sendable {
    private let observer = Recorder<AnyObserver<Element>>()
    func set(_ value: AnyObserver<Element>) { observer.append(value) }
    func on(_ event: Event<Element>) { observer.values.last?.on(event) }
}

/// Operators must not hold their lock while calling an observer or disposing another
/// subscription. Each case sets up the interleaving that deadlocked when they did; a deadlock
/// shows as a timed-out wait (a failed assertion), never as a hang.
final class CallOutWithoutLockStressTests: LeakCheckingTestCase {
    private let rounds = 5
    private let patience: DispatchTimeInterval = .seconds(2)

    /// Inner `a` completes on one thread once `b` is subscribed; disposing `a` waits for inner
    /// `b` to emit on another thread.
    private func runDisposalWaitsForAnEmitter(
        _ combine: (Observable<Int>, Observable<Int>) -> Observable<Int>, file: StaticString = #filePath, line: UInt = #line
    ) {
        let patience = self.patience
        for _ in 0..<rounds {
            let disposing = DispatchSemaphore(value: 0)
            let emitted = DispatchSemaphore(value: 0)
            let bSubscribed = DispatchSemaphore(value: 0)
            let timedOut = Recorder<String>()
            let a = Observable<Int>.create { observer in
                DispatchQueue.global().async {
                    if bSubscribed.wait(timeout: .now() + .seconds(5)) == .timedOut { timedOut.append("subscribe") }
                    observer.onCompleted()
                }
                return Disposables.create {
                    disposing.signal()
                    if emitted.wait(timeout: .now() + patience) == .timedOut { timedOut.append("disposal") }
                }
            }
            let b = Observable<Int>.create { observer in
                bSubscribed.signal()
                DispatchQueue.global().async {
                    if disposing.wait(timeout: .now() + .seconds(5)) == .timedOut { timedOut.append("start") }
                    observer.onNext(7)
                    emitted.signal()
                    observer.onCompleted()
                }
                return Disposables.create()
            }
            let received = Recorder<Int>()
            let completed = Recorder<Int>()
            let subscription = combine(a, b).subscribe(onNext: { received.append($0) }, onCompleted: { completed.append(1) })
            XCTAssertTrue(waitUntil(timeout: 10) { completed.count == 1 }, file: file, line: line)
            subscription.dispose()
            XCTAssertEqual(timedOut.values, [], "disposing the completed inner waited behind the merge's lock", file: file, line: line)
            XCTAssertEqual(received.values, [7], file: file, line: line)
        }
    }

    func testStressMergeDisposesACompletedInnerOutsideItsLock() {
        runDisposalWaitsForAnEmitter { Observable.merge($0, $1) }
    }

    func testStressFlatMapDisposesACompletedInnerOutsideItsLock() {
        runDisposalWaitsForAnEmitter { a, b in Observable.of(0, 1).flatMap { $0 == 0 ? a : b } }
    }

    /// The operator delivers an element (sent from a background thread) to an observer that
    /// blocks; an error sent meanwhile from another thread must not wait for that observer, and
    /// still arrives after the element.
    private func runErrorDoesNotWaitBehindABlockedObserver(
        _ apply: (Observable<Int>, any SchedulerType) -> Observable<Int>, file: StaticString = #filePath, line: UInt = #line
    ) {
        // The source breaks the grammar on purpose (an error while a `next` is being delivered),
        // which debug builds report: the reports are collected here and checked, not printed.
        let capture = DebugLogCapture()
        defer { capture.restore() }
        let reports = capture.lines
        for _ in 0..<rounds {
            let source = CapturedObserver<Int>()
            let inObserver = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let events = Recorder<String>()
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let upstream = Observable<Int>.create { observer in
                source.set(observer)
                return Disposables.create()
            }
            let subscription = apply(upstream, scheduler)
                .subscribe(onNext: { value in
                    events.append("next \(value)")
                    inObserver.signal()
                    _ = release.wait(timeout: .now() + .seconds(5))
                }, onError: { _ in events.append("error") })
            DispatchQueue.global().async { source.on(.next(1)) }
            XCTAssertEqual(inObserver.wait(timeout: .now() + .seconds(5)), .success, file: file, line: line)
            let errorReturned = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                source.on(.error(TestError(1)))
                errorReturned.signal()
            }
            XCTAssertEqual(errorReturned.wait(timeout: .now() + patience), .success,
                           "onError waited for the observer busy on another thread", file: file, line: line)
            release.signal()
            XCTAssertTrue(waitUntil(timeout: 10) { events.count == 2 }, file: file, line: line)
            XCTAssertEqual(events.values, ["next 1", "error"], file: file, line: line)
            subscription.dispose()
        }
        // Where the error reaches a sink still delivering `next 1` (merge, combineLatest, throttle,
        // timeout; not delay or debounce, which hand `next 1` to a scheduler), it is two threads at
        // once, never a re-entrant call.
        for report in reports.values {
            XCTAssertTrue(report.hasPrefix("⚠️ Synchronization anomaly was detected in `"), report, file: file, line: line)
        }
    }

    func testStressDelayErrorDoesNotWaitBehindABlockedObserver() {
        runErrorDoesNotWaitBehindABlockedObserver { $0.delay(.milliseconds(1), scheduler: $1) }
    }

    func testStressDebounceErrorDoesNotWaitBehindABlockedObserver() {
        runErrorDoesNotWaitBehindABlockedObserver { $0.debounce(.milliseconds(1), scheduler: $1) }
    }

    func testStressThrottleErrorDoesNotWaitBehindABlockedObserver() {
        runErrorDoesNotWaitBehindABlockedObserver { $0.throttle(.seconds(10), scheduler: $1) }
    }

    func testStressTimeoutErrorDoesNotWaitBehindABlockedObserver() {
        runErrorDoesNotWaitBehindABlockedObserver { $0.timeout(.seconds(10), scheduler: $1) }
    }

    func testStressMergeErrorDoesNotWaitBehindABlockedObserver() {
        runErrorDoesNotWaitBehindABlockedObserver { source, _ in Observable.merge(source, .never()) }
    }

    func testStressCombineLatestErrorDoesNotWaitBehindABlockedObserver() {
        runErrorDoesNotWaitBehindABlockedObserver { source, _ in Observable.combineLatest(source, Observable.just(0)) { $0 + $1 } }
    }
}
