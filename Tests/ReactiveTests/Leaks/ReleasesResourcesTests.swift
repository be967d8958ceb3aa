import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's `…ReleasesResourcesOnComplete/OnError` tests for the operators that once leaked (a
/// late subscriber of `publish`/`replay` after `connect()`, `skip(until:)`): `Resources.total` is back at its start once the subscription ended, whether by
/// completion, by error, or by `dispose()`, even when nobody keeps the subscription.
final class ReleasesResourcesTests: LeakCheckingTestCase {
    private func assertReleases(
        _ name: String, file: StaticString = #filePath, line: UInt = #line, _ body: () -> Void
    ) {
        let start = Resources.total
        body()
        XCTAssertEqual(Resources.total - start, 0, "\(name) kept subscriptions alive", file: file, line: line)
    }

    /// The three sharing operators of the first leak, by name.
    private let sharing: [(String, @Sendable (Observable<Int>) -> ConnectableObservable<Int>)] = [
        ("publish", { $0.publish() }), ("replay(1)", { $0.replay(1) }), ("replayAll", { $0.replayAll() }),
    ]

    // MARK: publish / replay / replayAll: a subscriber after a connection that ended in connect()

    func testSharingReleasesResourcesOnComplete() {
        for (name, share) in sharing {
            assertReleases(name) {
                let connectable = share(.just(1))
                _ = connectable.connect()
                _ = connectable.subscribe()
            }
        }
    }

    func testSharingReleasesResourcesOnError() {
        for (name, share) in sharing {
            assertReleases(name) {
                let connectable = share(.error(TestError(1)))
                _ = connectable.connect()
                _ = connectable.subscribe(onError: { _ in })
            }
        }
    }

    func testSharingReleasesResourcesOnDispose() {
        for (name, share) in sharing {
            assertReleases(name) {
                let connectable = share(.just(1))
                connectable.connect().dispose()
                connectable.subscribe().dispose()
            }
        }
    }

    /// The late subscriber still waits for the next connection while the connectable lives,
    /// as in RxSwift (a new subject per connection): releasing it must not cut that short.
    func testALateSubscriberStillGetsTheNextConnectionsEvents() {
        let connectable = Observable.of(1, 2).publish()
        _ = connectable.connect()
        let received = Recorder<String>()
        let subscription = connectable.subscribe(
            onNext: { received.append("\($0)") }, onCompleted: { received.append("completed") }
        )
        _ = connectable.connect()
        XCTAssertEqual(received.values, ["1", "2", "completed"])
        subscription.dispose()
    }

    // MARK: skip(until:) whose source ends before `other` fires

    func testSkipUntilReleasesResourcesOnComplete() {
        assertReleases("skip(until:) source completing first") {
            _ = Observable.just(1).skip(until: Observable<Int>.never()).subscribe()
        }
        assertReleases("skip(until:) source completing later") {
            let source = PublishSubject<Int>()
            let other = PublishSubject<Int>()
            _ = source.skip(until: other).subscribe()
            source.onCompleted()
        }
    }

    func testSkipUntilReleasesResourcesOnError() {
        assertReleases("skip(until:) source failing first") {
            _ = Observable<Int>.error(TestError(1)).skip(until: Observable<Int>.never()).subscribe(onError: { _ in })
        }
        assertReleases("skip(until:) other failing") {
            _ = Observable<Int>.never().skip(until: Observable<Int>.error(TestError(2))).subscribe(onError: { _ in })
        }
    }

    func testSkipUntilReleasesResourcesOnDispose() {
        assertReleases("skip(until:) disposed after the source completed") {
            let source = PublishSubject<Int>()
            let subscription = source.skip(until: Observable<Int>.never()).subscribe()
            source.onCompleted()
            subscription.dispose()
        }
        assertReleases("skip(until:) disposed while open") {
            Observable<Int>.never().skip(until: Observable.just(1)).subscribe().dispose()
        }
    }

    func testTakeUntilInTheSameShapeReleasesResources() {
        assertReleases("take(until:)") {
            _ = Observable.just(1).take(until: Observable<Int>.never()).subscribe()
        }
    }

    // MARK: resident memory over many rounds

    /// The measurement: 100,000 rounds of each shape once grew resident memory by
    /// about 48 MB (`publish`) and left `Resources.total` at +200,000. A bound of 16 MB leaves
    /// room for the allocator's own growth while failing on a leak of that size.
    func testManyRoundsKeepResidentMemoryFlat() throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        guard ResidentMemory.current() != nil else { throw XCTSkip("no /proc/self/statm on this system") }
        let rounds = 100_000
        let shapes: [(String, () -> Void)] = [
            ("publish", { let r = Observable.just(1).publish(); _ = r.connect(); _ = r.subscribe() }),
            ("replay(1)", { let r = Observable.just(1).replay(1); _ = r.connect(); _ = r.subscribe() }),
            ("skip(until:)", { _ = Observable.just(1).skip(until: Observable<Int>.never()).subscribe() }),
        ]
        for (name, round) in shapes {
            for _ in 0..<1_000 { round() }
            let resources = Resources.total
            let before = try XCTUnwrap(ResidentMemory.current())
            for _ in 0..<rounds { round() }
            let after = try XCTUnwrap(ResidentMemory.current())
            XCTAssertEqual(Resources.total, resources, "\(name): subscriptions left alive")
            XCTAssertLessThan(after - before, 16 << 20, "\(name): resident memory grew by \(after - before) bytes")
        }
    }
}
