import Reactive
import TestSupport
import XCTest

/// Observers that dispose themselves, or send into the subject, while it delivers.
final class SubjectReentrancyTests: LeakCheckingTestCase {
    func testObserverDisposingItselfGetsNothingMoreWhileOthersGetEverything() {
        let subject = PublishSubject<Int>()
        let own = Recorder<Int>()
        let other = Recorder<Int>()
        let selfDisposing = SingleAssignmentDisposable()
        selfDisposing.setDisposable(subject.subscribe(onNext: { value in
            own.append(value)
            if value == 2 { selfDisposing.dispose() }
        }))
        let second = subject.subscribe(onNext: { other.append($0) })
        for value in 1...4 { subject.onNext(value) }
        second.dispose()
        XCTAssertEqual(own.values, [1, 2])
        XCTAssertEqual(other.values, [1, 2, 3, 4])
    }

    func testObserverDisposingALaterObserverStopsTheCurrentDelivery() {
        let subject = PublishSubject<Int>()
        let later = SingleAssignmentDisposable()
        let laterValues = Recorder<Int>()
        let first = subject.subscribe(onNext: { value in if value == 2 { later.dispose() } })
        later.setDisposable(subject.subscribe(onNext: { laterValues.append($0) }))
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        first.dispose()
        XCTAssertEqual(laterValues.values, [1])
    }

    func testReentrantEmissionReachesEveryObserverInOneOrder() {
        let subject = PublishSubject<Int>()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let a = subject.subscribe(onNext: { value in
            first.append(value)
            if value == 1 { subject.onNext(2) }
        })
        let b = subject.subscribe(onNext: { second.append($0) })
        subject.onNext(1)
        subject.onNext(3)
        a.dispose()
        b.dispose()
        XCTAssertEqual(first.values, [1, 2, 3])
        XCTAssertEqual(second.values, [1, 2, 3], "every observer sees the events in the order they were sent")
    }

    func testReentrantCompletionIsNotFollowedByTheEventBeingDelivered() {
        let subject = PublishSubject<Int>()
        let second = Recorder<String>()
        subject.subscribe(onNext: { value in if value == 1 { subject.onCompleted() } })
        subject.subscribe(onNext: { second.append("next \($0)") }, onCompleted: { second.append("completed") })
        subject.onNext(1)
        XCTAssertEqual(second.values, ["next 1", "completed"], "nothing may follow a terminal event")
    }

    func testReentrantEmissionIntoBehaviorSubjectKeepsTheLatestValue() throws {
        let subject = BehaviorSubject(value: 0)
        let second = Recorder<Int>()
        let a = subject.subscribe(onNext: { value in if value == 1 { subject.onNext(2) } })
        let b = subject.subscribe(onNext: { second.append($0) })
        subject.onNext(1)
        XCTAssertEqual(try subject.value(), 2)
        let late = Recorder<Int>()
        subject.subscribe(onNext: { late.append($0) }).dispose()
        a.dispose()
        b.dispose()
        XCTAssertEqual(second.values, [0, 1, 2])
        XCTAssertEqual(late.values, [2])
    }

    func testSubscribingDuringDeliveryDoesNotReceiveTheCurrentEvent() {
        let subject = PublishSubject<Int>()
        let inner = Recorder<Int>()
        let bag = DisposeBag()
        subject.subscribe(onNext: { value in
            if value == 1 { subject.subscribe(onNext: { inner.append($0) }).disposed(by: bag) }
        }).disposed(by: bag)
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        bag.disposeAll()
        XCTAssertEqual(inner.values, [2])
    }
}
