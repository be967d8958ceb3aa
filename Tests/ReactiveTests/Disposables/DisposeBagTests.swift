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
        XCTAssertEqual(calls.count, 0)
        bag = nil
        XCTAssertNil(bag)
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
