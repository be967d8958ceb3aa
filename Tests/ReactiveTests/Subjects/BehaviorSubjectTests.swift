import Reactive
import TestSupport
import XCTest

final class BehaviorSubjectTests: LeakCheckingTestCase {
    func testNewSubscriberGetsTheInitialValueFirst() throws {
        let subject = BehaviorSubject(value: 0)
        let values = Recorder<Int>()
        let subscription = subject.subscribe(onNext: { values.append($0) })
        subject.onNext(1)
        subscription.dispose()
        XCTAssertEqual(values.values, [0, 1])
        XCTAssertEqual(try subject.value(), 1)
    }

    func testLateSubscriberGetsTheCurrentValueOnly() {
        let subject = BehaviorSubject(value: 0)
        subject.onNext(1)
        subject.onNext(2)
        let values = Recorder<Int>()
        let subscription = subject.subscribe(onNext: { values.append($0) })
        subject.onNext(3)
        subscription.dispose()
        XCTAssertEqual(values.values, [2, 3])
    }

    func testValueThrowsTheErrorAfterFailure() {
        let subject = BehaviorSubject(value: "a")
        subject.onError(TestError(3))
        XCTAssertThrowsError(try subject.value()) { error in
            XCTAssertEqual(error as? TestError, TestError(3))
        }
    }

    func testValueStaysReadableAfterCompletion() throws {
        let subject = BehaviorSubject(value: "a")
        subject.onNext("b")
        subject.onCompleted()
        subject.onNext("c")
        XCTAssertEqual(try subject.value(), "b")
    }

    func testLateSubscriberAfterCompletionGetsOnlyCompletion() {
        let subject = BehaviorSubject(value: 1)
        subject.onCompleted()
        let events = Recorder<String>()
        subject.subscribe(onNext: { events.append("next \($0)") }, onCompleted: { events.append("completed") })
        XCTAssertEqual(events.values, ["completed"])
    }

    func testLateSubscriberAfterErrorGetsTheError() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(TestError(4))
        let events = Recorder<String>()
        subject.subscribe(onNext: { events.append("next \($0)") }, onError: { events.append("error \(($0 as? TestError)?.code ?? -1)") })
        XCTAssertEqual(events.values, ["error 4"])
    }

    func testSubscriberAddedFromAnotherThreadSeesACurrentValueThenEveryLaterOne() {
        let subject = BehaviorSubject(value: 0)
        let values = Recorder<Int>()
        let subscribed = DispatchSemaphore(value: 0)
        let holder = Recorder<any Disposable>()
        DispatchQueue.global().async {
            holder.append(subject.subscribe(onNext: { values.append($0) }))
            subscribed.signal()
        }
        for value in 1...1_000 { subject.onNext(value) }
        subscribed.wait()
        holder.values.forEach { $0.dispose() }
        let seen = values.values
        XCTAssertFalse(seen.isEmpty)
        XCTAssertEqual(seen, Array((seen.first ?? 0)...(seen.last ?? 0)), "no gap and no repeat after the first value")
        XCTAssertEqual(seen.last, 1_000)
    }
}
