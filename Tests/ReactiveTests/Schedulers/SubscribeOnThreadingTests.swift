import Foundation
import Reactive
import TestSupport
import XCTest

final class SubscribeOnThreadingTests: LeakCheckingTestCase {
    func testSubscribesAndDisposesOnTheSchedulersQueue() {
        let queue = DispatchQueue(label: "subscribe-on-test")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "subscribe-on-test")
        let subscribedOn = Recorder<String?>()
        let disposedOn = Recorder<String?>()
        let values = Recorder<Int>()
        let source = Observable<Int>.create { observer in
            subscribedOn.append(DispatchQueue.getSpecific(key: key))
            observer.onNext(1)
            return Disposables.create { disposedOn.append(DispatchQueue.getSpecific(key: key)) }
        }
        let subscription = source.subscribe(on: SerialDispatchQueueScheduler(queue: queue)).subscribe(onNext: { values.append($0) })
        XCTAssertTrue(waitUntil { values.count == 1 })
        XCTAssertEqual(subscribedOn.values, ["subscribe-on-test"])
        subscription.dispose()
        XCTAssertTrue(waitUntil { disposedOn.count == 1 })
        XCTAssertEqual(disposedOn.values, ["subscribe-on-test"])
    }

    func testSubscribeIsNotOnTheCallingThread() {
        let caller = pthread_self()
        let onCaller = Recorder<Bool>()
        let done = Recorder<Int>()
        let subscription = Observable<Int>.deferred {
            onCaller.append(pthread_equal(pthread_self(), caller) != 0)
            return .just(1)
        }
        .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
        .subscribe(onCompleted: { done.append(1) })
        XCTAssertTrue(waitUntil { done.count == 1 })
        subscription.dispose()
        XCTAssertEqual(onCaller.values, [false])
    }

    func testDisposingBeforeTheScheduledSubscribeSkipsIt() {
        let queue = DispatchQueue(label: "subscribe-on-blocked")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let subscribed = Recorder<Int>()
        let subscription = Observable<Int>.deferred {
            subscribed.append(1)
            return .never()
        }
        .subscribe(on: SerialDispatchQueueScheduler(queue: queue))
        .subscribe()
        subscription.dispose()
        gate.signal()
        queue.sync {}
        queue.sync {}
        XCTAssertEqual(subscribed.count, 0)
    }
}
