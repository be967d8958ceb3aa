import Reactive
import TestSupport
import XCTest

/// RxSwift's `RefCountDisposable` tests.
final class RefCountDisposableTests: LeakCheckingTestCase {
    func testDisposesAtOnceWithoutReferences() {
        let disposed = Recorder<Bool>()
        let refCount = RefCountDisposable(disposable: Disposables.create { disposed.append(true) })
        XCTAssertFalse(refCount.isDisposed)
        refCount.dispose()
        XCTAssertTrue(refCount.isDisposed)
        XCTAssertEqual(disposed.count, 1)
    }

    func testWaitsForEveryReferenceAfterThePrimary() {
        let disposed = Recorder<Bool>()
        let refCount = RefCountDisposable(disposable: Disposables.create { disposed.append(true) })
        let first = refCount.retain()
        let second = refCount.retain()
        refCount.dispose()
        XCTAssertEqual(disposed.count, 0)
        first.dispose()
        first.dispose()
        XCTAssertEqual(disposed.count, 0, "disposing one reference twice releases it once")
        second.dispose()
        XCTAssertEqual(disposed.count, 1)
        XCTAssertTrue(refCount.isDisposed)
    }

    func testReferencesReleasedBeforeThePrimaryDoNotDispose() {
        let disposed = Recorder<Bool>()
        let refCount = RefCountDisposable(disposable: Disposables.create { disposed.append(true) })
        refCount.retain().dispose()
        XCTAssertEqual(disposed.count, 0)
        refCount.dispose()
        refCount.dispose()
        XCTAssertEqual(disposed.count, 1)
    }

    func testRetainAfterDisposalIsANoOp() {
        let disposed = Recorder<Bool>()
        let refCount = RefCountDisposable(disposable: Disposables.create { disposed.append(true) })
        refCount.dispose()
        refCount.retain().dispose()
        XCTAssertEqual(disposed.count, 1)
    }
}
