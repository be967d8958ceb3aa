import Reactive
import TestSupport
import XCTest

final class ReplaySubjectTests: LeakCheckingTestCase {
    func testLateSubscriberGetsTheLastBufferSizeElements() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        for value in 1...5 { subject.onNext(value) }
        let values = Recorder<Int>()
        let subscription = subject.subscribe(onNext: { values.append($0) })
        subject.onNext(6)
        subscription.dispose()
        XCTAssertEqual(values.values, [4, 5, 6])
    }

    func testLateSubscriberAfterCompletionGetsTheBufferThenCompletion() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        for value in 1...4 { subject.onNext(value) }
        subject.onCompleted()
        subject.onNext(99)
        let events = Recorder<String>()
        subject.subscribe(onNext: { events.append("next \($0)") }, onCompleted: { events.append("completed") })
        XCTAssertEqual(events.values, ["next 2", "next 3", "next 4", "completed"])
    }

    func testLateSubscriberAfterErrorGetsTheBufferThenTheError() {
        let subject = ReplaySubject<String>.create(bufferSize: 1)
        subject.onNext("a")
        subject.onNext("b")
        subject.onError(TestError(2))
        let events = Recorder<String>()
        subject.subscribe(onNext: { events.append($0) }, onError: { events.append("error \(($0 as? TestError)?.code ?? -1)") })
        XCTAssertEqual(events.values, ["b", "error 2"])
    }

    func testUnboundedReplaysEverything() {
        let subject = ReplaySubject<Int>.createUnbounded()
        for value in 0..<500 { subject.onNext(value) }
        let values = Recorder<Int>()
        subject.subscribe(onNext: { values.append($0) }).dispose()
        XCTAssertEqual(values.values, Array(0..<500))
    }

    func testBufferSizeZeroReplaysNothing() {
        let subject = ReplaySubject<Int>.create(bufferSize: 0)
        subject.onNext(1)
        let values = Recorder<Int>()
        let subscription = subject.subscribe(onNext: { values.append($0) })
        subject.onNext(2)
        subscription.dispose()
        XCTAssertEqual(values.values, [2])
    }

    func testDisposingDuringReplayStopsTheReplay() {
        let subject = ReplaySubject<Int>.createUnbounded()
        for value in 0..<10 { subject.onNext(value) }
        let values = Recorder<Int>()
        let subscription = subject.asObservable().take(3).subscribe(onNext: { values.append($0) })
        subject.onNext(10)
        subscription.dispose()
        XCTAssertEqual(values.values, [0, 1, 2])
        XCTAssertFalse(subject.hasObservers)
    }
}
