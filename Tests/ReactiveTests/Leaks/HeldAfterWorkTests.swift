import Foundation
import Reactive
import TestSupport
import XCTest

/// Memory held after the work is over, the shapes a release program measured: a subject and the
/// subscription to it dropped together without `dispose()` or a terminal event (directly, and
/// through `map` and `filter`, a shape RxSwift leaks too), and a timer on a dispatch queue
/// disposed long before its deadline. Each must free what it held when its last reference goes
/// or at dispose: counted by `Resources` (live subscriptions) and by the allocator's bytes in use.
final class HeldAfterWorkTests: LeakCheckingTestCase {
    /// The subjects the first two shapes run on, by name.
    private let subjects: [(String, @Sendable () -> any SubjectType<Int>)] = [
        ("PublishSubject", { PublishSubject<Int>() }),
        ("BehaviorSubject", { BehaviorSubject(value: 0) }),
        ("ReplaySubject", { ReplaySubject<Int>.create(bufferSize: 1) }),
    ]

    /// For each subject: subscribes through `subscribe` (which holds `live` subscriptions at
    /// least), drops the subject and the subscription without `dispose()`, and checks both are gone.
    private func assertFreedWithTheSubject(
        live: Int32, file: StaticString = #filePath, line: UInt = #line,
        _ subscribe: (any SubjectType<Int>) -> any Disposable
    ) {
        for (name, make) in subjects {
            let start = Resources.total
            weak var weakSubject: AnyObject?
            do {
                let subject = make()
                weakSubject = subject as AnyObject
                _ = subscribe(subject)
                XCTAssertGreaterThanOrEqual(Resources.total, start + live, name, file: file, line: line)
            }
            XCTAssertNil(weakSubject, "\(name) is freed with its last reference", file: file, line: line)
            XCTAssertEqual(Resources.total, start, "\(name): what subscribed to it is freed with it", file: file, line: line)
        }
    }

    func testASubjectAndItsSubscriptionDroppedTogetherAreFreed() {
        assertFreedWithTheSubject(live: 1) { $0.subscribe(onNext: { _ in }) }
    }

    func testASubjectAndAMapFilterSubscriptionDroppedTogetherAreFreed() {
        // The subject's subscription and two sinks, the shape RxSwift leaks.
        assertFreedWithTheSubject(live: 3) {
            $0.map { $0 * 2 }.filter { $0 > 0 }.subscribe(onNext: { _ in })
        }
    }

    func testFiftyThousandDroppedChainsLeaveNoBytesBehind() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        guard HeapBytes.current() != nil else { throw XCTSkip("no allocator count on this system") }
        for _ in 0..<1_000 { dropBoth() }
        let before = try XCTUnwrap(HeapBytes.current())
        for _ in 0..<50_000 { dropBoth() }
        let after = try XCTUnwrap(HeapBytes.current())
        // Hundreds of bytes a round before the cycles were broken: over 20 MB. 4 MB allows the allocator's noise.
        XCTAssertLessThan(after - before, 4 << 20, "held \(after - before) bytes after 50,000 rounds")
    }

    private func dropBoth() {
        let subject = PublishSubject<Int>()
        _ = subject.map { $0 }.filter { _ in true }.subscribe()
    }

    /// The cycle is broken only once nothing can send: while the subject lives, a subscription
    /// dropped without `dispose()` stays subscribed (Rx's rule), and one kept after its subject is
    /// gone can still be disposed.
    func testALiveSubjectKeepsAnUndisposedSubscriptionAndALateDisposeIsHarmless() {
        let received = Recorder<Int>()
        let subject = PublishSubject<Int>()
        _ = subject.map { $0 + 1 }.subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        XCTAssertEqual(received.values, [2])

        var other: PublishSubject<Int>? = PublishSubject<Int>()
        let kept = other!.subscribe(onNext: { received.append($0) })
        other = nil
        kept.dispose()
        subject.onCompleted()
    }

    /// A subscription holds its subject's core strongly, and the subject's `deinit` lets go of
    /// them: the chains subscribed before let go at once, though a `PublishSubject`'s
    /// `asObservable()` still holds the core, and what subscribes through it afterwards is
    /// registered nowhere.
    func testSubscribingThroughAnObservableThatOutlivedItsSubjectHoldsNothing() {
        let start = Resources.total
        let received = Recorder<Int>()
        var publish: PublishSubject<Int>? = PublishSubject<Int>()
        let orphan = publish?.asObservable() ?? .empty()
        let early = orphan.map { $0 }.subscribe(onNext: { received.append($0) })
        publish?.onNext(1)
        publish = nil
        XCTAssertEqual(Resources.total, start + 1, "only the undisposed subscriber itself: its chain let go of the subject")
        _ = orphan.subscribe(onNext: { received.append($0) })
        XCTAssertEqual(Resources.total, start + 1, "a late subscriber is not registered anywhere")
        early.dispose()
        XCTAssertEqual(received.values, [1])
    }

    func testADisposedTimerOnADispatchQueueLetsGoOfItsMemoryBeforeItsDeadline() throws {
        guard HeapBytes.current() != nil else { throw XCTSkip("no allocator count on this system") }
        let queue = DispatchQueue(label: "HeldAfterWorkTests.timers")
        let scheduler = SerialDispatchQueueScheduler(queue: queue)
        for _ in 0..<1_000 { Single<Int>.timer(.seconds(100), scheduler: scheduler).subscribe().dispose() }
        queue.sync {}
        let before = try XCTUnwrap(HeapBytes.current())
        let start = Resources.total
        for _ in 0..<20_000 { Single<Int>.timer(.seconds(100), scheduler: scheduler).subscribe().dispose() }
        XCTAssertEqual(Resources.total, start, "the sinks go at dispose")
        // Cancelled timer sources let go of their handlers on the queue: wait for it to get there.
        queue.sync {}
        // About 463 B a timer stayed until the deadline with `asyncAfter`: 9 MB here.
        XCTAssertTrue(waitUntil { (HeapBytes.current() ?? 0) - before < 1 << 20 },
                      "held \((HeapBytes.current() ?? 0) - before) bytes for 20,000 disposed timers")
    }

    func testATimerStillFiresAndThenHoldsNothing() {
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let fired = Recorder<Int>()
        let subscription = Single<Int>.timer(.milliseconds(5), scheduler: scheduler).subscribe(onSuccess: { fired.append($0) })
        XCTAssertTrue(waitUntil { fired.count == 1 })
        XCTAssertEqual(fired.values, [0])
        subscription.dispose()
    }
}
