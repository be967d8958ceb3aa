import Reactive
import TestSupport
import XCTest

/// RxSwift's observer type names, as helper functions spell them.
final class TraitObserverTypeNameTests: LeakCheckingTestCase {
    private static func answer(_ observer: @escaping Single<Int>.SingleObserver) -> any Disposable {
        observer(.success(1))
        return Disposables.create()
    }

    private static func miss(_ observer: @escaping Maybe<Int>.MaybeObserver) -> any Disposable {
        observer(.completed)
        return Disposables.create()
    }

    private static func fail(_ observer: @escaping Completable.CompletableObserver) -> any Disposable {
        observer(.error(TestError(1)))
        return Disposables.create()
    }

    func testCreateTakesFunctionsSpelledWithTheObserverTypeNames() {
        let log = Recorder<String>()
        Single.create(subscribe: Self.answer).subscribe(onSuccess: { log.append("success \($0)") })
        Maybe.create(subscribe: Self.miss).subscribe(onCompleted: { log.append("empty") })
        Completable.create(subscribe: Self.fail).subscribe(onError: { _ in log.append("error") })
        XCTAssertEqual(log.values, ["success 1", "empty", "error"])
    }
}
