import Reactive
import TestSupport
import XCTest

final class DisposablesCreateTests: LeakCheckingTestCase {
    func testActionRunsOnceOnFirstDispose() {
        let calls = Recorder<Int>()
        let disposable = Disposables.create { calls.append(1) }
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertEqual(calls.count, 1)
    }

    func testActionRunsOnceWhenDisposedFromManyThreads() {
        let calls = Recorder<Int>()
        let disposable = Disposables.create { calls.append(1) }
        DispatchQueue.concurrentPerform(iterations: 64) { _ in disposable.dispose() }
        XCTAssertEqual(calls.count, 1)
    }

    func testPairDisposesBothOnce() {
        let calls = Recorder<String>()
        let pair = Disposables.create(Disposables.create { calls.append("a") }, Disposables.create { calls.append("b") })
        XCTAssertFalse(pair.isDisposed)
        pair.dispose()
        pair.dispose()
        XCTAssertTrue(pair.isDisposed)
        XCTAssertEqual(calls.values, ["a", "b"])
    }

    func testVariadicAndArrayFormsDisposeAllInOrder() {
        let calls = Recorder<Int>()
        let three = Disposables.create(Disposables.create { calls.append(1) },
                                       Disposables.create { calls.append(2) },
                                       Disposables.create { calls.append(3) })
        three.dispose()
        let list = Disposables.create((4...6).map { value in Disposables.create { calls.append(value) } })
        list.dispose()
        list.dispose()
        XCTAssertTrue(three.isDisposed)
        XCTAssertTrue(list.isDisposed)
        XCTAssertEqual(calls.values, [1, 2, 3, 4, 5, 6])
    }

    func testBooleanDisposableOnlyRecordsDisposal() {
        let flag = BooleanDisposable()
        XCTAssertFalse(flag.isDisposed)
        flag.dispose()
        XCTAssertTrue(flag.isDisposed)
        XCTAssertTrue(BooleanDisposable(isDisposed: true).isDisposed)
    }
}
