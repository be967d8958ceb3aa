import Foundation
import Reactive
import TestSupport
import XCTest

final class ObserveOnThreadingTests: LeakCheckingTestCase {
    private func checkKeepsOrderOffTheCallingThread(_ scheduler: any SchedulerType, file: StaticString = #filePath, line: UInt = #line) {
        let caller = pthread_self()
        let subject = PublishSubject<Int>()
        let values = Recorder<Int>()
        let onCaller = Recorder<Bool>()
        let done = Recorder<Bool>()
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { value in
                onCaller.append(pthread_equal(pthread_self(), caller) != 0)
                values.append(value)
            },
            onCompleted: { done.append(true) })
        for value in 0..<2_000 { subject.onNext(value) }
        subject.onCompleted()
        XCTAssertTrue(waitUntil { done.count == 1 }, "completion must arrive", file: file, line: line)
        subscription.dispose()
        XCTAssertEqual(values.values, Array(0..<2_000), file: file, line: line)
        XCTAssertFalse(onCaller.values.contains(true), "delivered on the calling thread", file: file, line: line)
    }

    func testSerialSchedulerKeepsOrderOffTheCallingThread() {
        checkKeepsOrderOffTheCallingThread(SerialDispatchQueueScheduler(qos: .userInitiated))
    }

    func testConcurrentSchedulerKeepsOrderOffTheCallingThread() {
        checkKeepsOrderOffTheCallingThread(ConcurrentDispatchQueueScheduler(qos: .userInitiated))
    }

    func testDeliversOnTheSchedulersQueue() {
        let queue = DispatchQueue(label: "observe-on-test")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "observe-on-test")
        let labels = Recorder<String?>()
        let subscription = Observable.of(1, 2, 3)
            .observe(on: SerialDispatchQueueScheduler(queue: queue))
            .subscribe(onNext: { _ in labels.append(DispatchQueue.getSpecific(key: key)) })
        XCTAssertTrue(waitUntil { labels.count == 3 })
        subscription.dispose()
        XCTAssertEqual(labels.values, Array(repeating: "observe-on-test", count: 3))
    }

    func testErrorArrivesAfterTheElementsBeforeIt() {
        let events = Recorder<String>()
        let subscription = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onError(TestError(5))
            return Disposables.create()
        }
        .observe(on: SerialDispatchQueueScheduler(qos: .default))
        .subscribe(onNext: { events.append("\($0)") }, onError: { _ in events.append("error") })
        XCTAssertTrue(waitUntil { events.count == 3 })
        subscription.dispose()
        XCTAssertEqual(events.values, ["1", "2", "error"])
    }

    func testDisposeStopsDeliveryOfQueuedElements() {
        let queue = DispatchQueue(label: "observe-on-blocked")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let values = Recorder<Int>()
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: SerialDispatchQueueScheduler(queue: queue)).subscribe(onNext: { values.append($0) })
        for value in 0..<10 { subject.onNext(value) }
        subscription.dispose()
        gate.signal()
        queue.sync {}
        XCTAssertEqual(values.count, 0, "elements still queued at dispose() must not be delivered")
        XCTAssertFalse(subject.hasObservers)
    }
}

/// `Resources.numberOfSerialDispatchQueueObservables`: live `observe(on:)` subscriptions on a
/// serial dispatch queue (debug builds count them; the suite runs in debug).
extension ObserveOnThreadingTests {
    func testSerialQueueObservationsAreCountedWhileTheyLive() {
        let start = Resources.numberOfSerialDispatchQueueObservables
        let subject = PublishSubject<Int>()
        do {
            let serial = subject.observe(on: SerialDispatchQueueScheduler(qos: .default)).subscribe()
            let main = subject.observe(on: MainScheduler.instance).subscribe()
            let concurrent = subject.observe(on: ConcurrentDispatchQueueScheduler(qos: .default)).subscribe()
            let immediate = subject.observe(on: ImmediateScheduler.instance).subscribe()
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, start + 2, "the serial queue's and the main queue's")
            for subscription in [serial, main, concurrent, immediate] { subscription.dispose() }
        }
        XCTAssertTrue(waitUntil { Resources.numberOfSerialDispatchQueueObservables == start })
    }

    func testACompletedSerialQueueObservationIsNoLongerCounted() {
        let start = Resources.numberOfSerialDispatchQueueObservables
        let done = Recorder<Bool>()
        _ = Observable.of(1, 2).observe(on: SerialDispatchQueueScheduler(qos: .default))
            .subscribe(onCompleted: { done.append(true) })
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertTrue(waitUntil { Resources.numberOfSerialDispatchQueueObservables == start })
    }
}
