import Reactive
import TestSupport
import XCTest

final class DisposeBagTests: LeakCheckingTestCase {
    func testDeinitDisposesEverything() {
        let calls = Recorder<Int>()
        var bag: DisposeBag? = DisposeBag()
        if let bag {
            Disposables.create { calls.append(1) }.disposed(by: bag)
            bag.insert(Disposables.create { calls.append(2) }, Disposables.create { calls.append(3) })
        }
        weak let released = bag
        XCTAssertEqual(calls.count, 0)
        bag = nil
        XCTAssertNil(released, "nothing else holds the bag")
        XCTAssertEqual(calls.values, [1, 2, 3])
    }

    func testReplacingTheBagEndsItsSubscriptions() {
        let subject = PublishSubject<Int>()
        let values = Recorder<Int>()
        var bag = DisposeBag()
        subject.subscribe(onNext: { values.append($0) }).disposed(by: bag)
        subject.onNext(1)
        bag = DisposeBag()
        subject.onNext(2)
        XCTAssertEqual(values.values, [1])
        XCTAssertFalse(subject.hasObservers)
        _ = bag
    }

    func testDisposeAllKeepsTheBagUsable() {
        let calls = Recorder<Int>()
        let bag = DisposeBag()
        Disposables.create { calls.append(1) }.disposed(by: bag)
        bag.disposeAll()
        XCTAssertEqual(calls.values, [1])
        Disposables.create { calls.append(2) }.disposed(by: bag)
        XCTAssertEqual(calls.values, [1], "a bag that was emptied still holds new members")
        bag.disposeAll()
        XCTAssertEqual(calls.values, [1, 2])
    }
}

final class DisposeBagBuilderTests: LeakCheckingTestCase {
    func testBuilderInitHoldsEveryListedDisposable() {
        let calls = Recorder<Int>()
        var bag: DisposeBag? = DisposeBag {
            Disposables.create { calls.append(1) }
            Disposables.create { calls.append(2) }
            Disposables.create { calls.append(3) }
        }
        weak let released = bag
        XCTAssertEqual(calls.count, 0)
        bag = nil
        XCTAssertNil(released, "the builder's bag holds only its members")
        XCTAssertEqual(calls.values, [1, 2, 3])
    }

    func testInitDisposingAndInsertForms() {
        let calls = Recorder<Int>()
        var bag: DisposeBag? = DisposeBag(disposing: Disposables.create { calls.append(1) }, Disposables.create { calls.append(2) })
        bag?.insert([Disposables.create { calls.append(3) }])
        bag?.insert {
            Disposables.create { calls.append(4) }
            Disposables.create { calls.append(5) }
        }
        bag?.insert(Disposables.create { calls.append(6) }, Disposables.create { calls.append(7) })
        XCTAssertEqual(calls.count, 0)
        bag = nil
        XCTAssertEqual(calls.values, [1, 2, 3, 4, 5, 6, 7])

        let arrayBag = DisposeBag(disposing: [Disposables.create { calls.append(8) }])
        arrayBag.disposeAll()
        XCTAssertEqual(calls.values.last, 8)
    }

    func testBuilderWithSubscriptions() {
        let subject = PublishSubject<Int>()
        let relay = BehaviorRelay(value: 0)
        let values = Recorder<Int>()
        var bag: DisposeBag? = DisposeBag {
            subject.bind(to: relay)
            subject.subscribe(onNext: { values.append($0) })
        }
        subject.onNext(1)
        XCTAssertEqual(relay.value, 1)
        weak let released = bag
        bag = nil
        XCTAssertNil(released, "the subscriptions do not keep their bag alive")
        subject.onNext(2)
        XCTAssertEqual(relay.value, 1)
        XCTAssertEqual(values.values, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
