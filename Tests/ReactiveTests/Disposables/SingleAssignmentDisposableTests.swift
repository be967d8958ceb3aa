import Reactive
import TestSupport
import XCTest

final class SingleAssignmentDisposableTests: LeakCheckingTestCase {
    func testDisposeDisposesTheAssignedDisposable() {
        let calls = Recorder<Int>()
        let holder = SingleAssignmentDisposable()
        holder.setDisposable(Disposables.create { calls.append(1) })
        XCTAssertEqual(calls.count, 0)
        holder.dispose()
        holder.dispose()
        XCTAssertTrue(holder.isDisposed)
        XCTAssertEqual(calls.count, 1)
    }

    func testASecondAssignmentIsDisposedAtOnceAndTheFirstKept() {
        let first = BooleanDisposable()
        let second = BooleanDisposable()
        let holder = SingleAssignmentDisposable()
        holder.setDisposable(first)
        holder.setDisposable(second)
        XCTAssertTrue(second.isDisposed, "the second assignment does not run unowned")
        XCTAssertFalse(first.isDisposed)
        holder.dispose()
        XCTAssertTrue(first.isDisposed)
    }

    func testDisposeBeforeSetDisposesOnSet() {
        let calls = Recorder<Int>()
        let holder = SingleAssignmentDisposable()
        holder.dispose()
        XCTAssertTrue(holder.isDisposed)
        holder.setDisposable(Disposables.create { calls.append(1) })
        XCTAssertEqual(calls.count, 1)
    }

    func testDisposeBeforeSetStopsASubscription() {
        let subject = PublishSubject<Int>()
        let values = Recorder<Int>()
        let holder = SingleAssignmentDisposable()
        holder.dispose()
        holder.setDisposable(subject.subscribe(onNext: { values.append($0) }))
        subject.onNext(1)
        XCTAssertEqual(values.count, 0)
        XCTAssertFalse(subject.hasObservers)
    }

    func testSetAndDisposeRacingDisposeExactlyOnce() {
        for _ in 0..<200 {
            let calls = Recorder<Int>()
            let holder = SingleAssignmentDisposable()
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { holder.setDisposable(Disposables.create { calls.append(1) }) }
            DispatchQueue.global().async(group: group) { holder.dispose() }
            group.wait()
            XCTAssertEqual(calls.count, 1)
        }
    }
}
