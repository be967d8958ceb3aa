import Reactive
import TestSupport
import XCTest

final class SubscribeWithTests: LeakCheckingTestCase {
    final class Owner: Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    func testPassesTheObjectToEachCallback() {
        let owner = Owner(name: "vm")
        let log = Recorder<String>()
        Observable.of(1, 2).subscribe(
            with: owner,
            onNext: { owner, value in log.append("\(owner.name) next \(value)") },
            onError: { owner, _ in log.append("\(owner.name) error") },
            onCompleted: { owner in log.append("\(owner.name) completed") },
            onDisposed: { owner in log.append("\(owner.name) disposed") }
        )
        XCTAssertEqual(log.values, ["vm next 1", "vm next 2", "vm completed", "vm disposed"])

        Observable<Int>.error(TestError(1)).subscribe(with: owner, onError: { owner, error in
            log.append("\(owner.name) \(error as? TestError == TestError(1))")
        })
        XCTAssertEqual(log.values.last, "vm true")
    }

    func testHoldsTheObjectWeaklyAndDeliversNothingOnceItIsGone() {
        let subject = PublishSubject<Int>()
        let log = Recorder<String>()
        var owner: Owner? = Owner(name: "vm")
        weak let weakOwner = owner
        let subscription = subject.subscribe(
            with: owner ?? Owner(name: "unused"),
            onNext: { owner, value in log.append("\(owner.name) \(value)") },
            onCompleted: { _ in log.append("completed") },
            onDisposed: { _ in log.append("disposed") }
        )
        subject.onNext(1)
        owner = nil
        XCTAssertNil(weakOwner)
        subject.onNext(2)
        subject.onCompleted()
        XCTAssertEqual(log.values, ["vm 1"])
        subscription.dispose()
    }

    func testTraitsSubscribeWithAnObject() {
        let owner = Owner(name: "vm")
        let log = Recorder<String>()
        Single.just(1).subscribe(with: owner, onSuccess: { owner, value in log.append("\(owner.name) single \(value)") })
        Single<Int>.error(TestError(1)).subscribe(with: owner, onFailure: { owner, _ in log.append("\(owner.name) single failed") })
        Maybe.just(2).subscribe(with: owner, onSuccess: { owner, value in log.append("\(owner.name) maybe \(value)") },
                                onCompleted: { _ in log.append("maybe completed too") })
        Maybe<Int>.empty().subscribe(with: owner, onCompleted: { owner in log.append("\(owner.name) maybe empty") })
        Completable.empty().subscribe(with: owner, onCompleted: { owner in log.append("\(owner.name) completable") },
                                      onDisposed: { owner in log.append("\(owner.name) disposed") })
        XCTAssertEqual(log.values, [
            "vm single 1", "vm single failed", "vm maybe 2", "vm maybe empty", "vm completable", "vm disposed",
        ])
    }

    func testTraitsDeliverNothingOnceTheObjectIsGone() {
        let subject = PublishSubject<Int>()
        let log = Recorder<String>()
        var owner: Owner? = Owner(name: "vm")
        let single = subject.take(1).asSingle().subscribe(with: owner ?? Owner(name: "unused"), onSuccess: { _, value in log.append("single \(value)") })
        let completable = subject.ignoreElements().subscribe(with: owner ?? Owner(name: "unused"), onCompleted: { _ in log.append("completed") })
        owner = nil
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(log.values, [])
        single.dispose()
        completable.dispose()
    }
}
