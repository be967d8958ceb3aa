import Reactive
import TestSupport
import XCTest

final class CompositeDisposableTests: LeakCheckingTestCase {
    func testDisposeDisposesEveryMemberOnce() {
        let calls = Recorder<Int>()
        let group = CompositeDisposable(Disposables.create { calls.append(1) })
        group.insert(Disposables.create { calls.append(2) })
        XCTAssertEqual(group.count, 2)
        group.dispose()
        group.dispose()
        XCTAssertTrue(group.isDisposed)
        XCTAssertEqual(group.count, 0)
        XCTAssertEqual(calls.values, [1, 2])
    }

    func testInsertAfterDisposeDisposesAtOnce() {
        let calls = Recorder<Int>()
        let group = CompositeDisposable()
        group.dispose()
        let key = group.insert(Disposables.create { calls.append(1) })
        XCTAssertNil(key)
        XCTAssertEqual(calls.values, [1])
        XCTAssertEqual(group.count, 0)
    }

    func testRemoveForKeyDisposesOnlyThatMember() {
        let calls = Recorder<String>()
        let group = CompositeDisposable()
        let a = group.insert(Disposables.create { calls.append("a") })
        let b = group.insert(Disposables.create { calls.append("b") })
        XCTAssertNotEqual(a, b)
        if let b { group.remove(for: b) }
        XCTAssertEqual(calls.values, ["b"])
        XCTAssertEqual(group.count, 1)
        if let b { group.remove(for: b) }
        XCTAssertEqual(calls.values, ["b"], "removing twice disposes once")
        group.dispose()
        XCTAssertEqual(calls.values, ["b", "a"])
    }

    func testRemovingAfterDisposeDoesNothing() {
        let calls = Recorder<Int>()
        let group = CompositeDisposable()
        let key = group.insert(Disposables.create { calls.append(1) })
        group.dispose()
        if let key { group.remove(for: key) }
        XCTAssertEqual(calls.count, 1)
    }

    func testConcurrentInsertsAndDisposeDisposeEveryMemberExactlyOnce() {
        let calls = Recorder<Int>()
        let group = CompositeDisposable()
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            if index == 200 { group.dispose() }
            group.insert(Disposables.create { calls.append(index) })
        }
        group.dispose()
        XCTAssertEqual(calls.values.sorted(), Array(0..<400))
    }

    func testHoldsSubscriptionsUntilDisposed() {
        let subject = PublishSubject<Int>()
        let values = Recorder<Int>()
        let group = CompositeDisposable()
        group.insert(subject.subscribe(onNext: { values.append($0) }))
        group.insert(subject.subscribe(onNext: { values.append($0 * 10) }))
        subject.onNext(1)
        group.dispose()
        subject.onNext(2)
        XCTAssertEqual(values.values, [1, 10])
        XCTAssertFalse(subject.hasObservers)
    }
}
