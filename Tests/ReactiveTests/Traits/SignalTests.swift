import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// A Sendable object for `emit(with:)`, released by the test to check the weak hold.
private final class Owner: Sendable {
    let log = Recorder<String>()
}

final class SignalTests: LeakCheckingTestCase {
    func testAsSignalOnErrorJustReturnEndsWithTheFallbackElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { xs.asSignal(onErrorJustReturn: -1) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, -1), .completed(230)])
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testAsSignalOnErrorSignalWithAndOnErrorRecover() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(4))])
        SharingScheduler.mock(scheduler: scheduler) {
            let switched = scheduler.start { xs.asSignal(onErrorSignalWith: Signal.just(9)) }
            XCTAssertEqual(switched.events, [.next(210, 1), .next(230, 9), .completed(230)])
        }
        let ys = scheduler.createHotObservable([.next(1210, 1), .error(1230, TestError(4))])
        SharingScheduler.mock(scheduler: scheduler) {
            let recovered = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                ys.asSignal(onErrorRecover: { error in .of((error as? TestError)?.code ?? -1, 0) })
            }
            XCTAssertEqual(recovered.events, [.next(1210, 1), .next(1230, 4), .next(1230, 0), .completed(1230)])
        }
    }

    func testDisposingASignalReleasesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { xs.asSignal(onErrorJustReturn: -1).map { $0 * 2 } }
            XCTAssertEqual(res.events, [.next(210, 2)])
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testASignalSharesWithoutReplaying() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let subscriptions = Recorder<any Disposable>()
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = xs.asSignal(onErrorJustReturn: -1)
            scheduler.scheduleAt(200) { subscriptions.append(signal.emit(to: first)) }
            scheduler.scheduleAt(230) { subscriptions.append(signal.emit(to: late)) }
            scheduler.scheduleAt(300) { subscriptions.values.forEach { $0.dispose() } }
            scheduler.start()
        }
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .next(240, 3)])
        XCTAssertEqual(late.events, [.next(240, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testEmitToRelaysObserversClosuresAndAWeakObject() {
        let relay = PublishRelay<Int>()
        let source = PublishSubject<Int>()
        let publish = PublishRelay<Int?>()
        let behavior = BehaviorRelay(value: 0)
        let log = Recorder<String>()
        var owner: Owner? = Owner()
        let ownerLog = owner?.log ?? Recorder<String>()
        let published = Recorder<Int?>()
        let watch = publish.subscribe(onNext: { published.append($0) })
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int?.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = source.asSignal(onErrorJustReturn: -1)
            let bag = [
                signal.emit(to: relay),
                signal.emit(to: publish),
                signal.emit(to: behavior),
                signal.emit(to: observer),
                signal.emit(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }),
                signal.emit(with: owner ?? Owner(), onNext: { $0.log.append("next \($1)") }),
                signal.emit(),
            ]
            source.onNext(1)
            scheduler.start()
            owner = nil
            source.onNext(2)
            source.onError(TestError(1))
            scheduler.start()
            bag.forEach { $0.dispose() }
        }
        watch.dispose()
        XCTAssertEqual(published.values, [1, 2, -1])
        XCTAssertEqual(behavior.value, -1)
        XCTAssertEqual(observer.events, [.next(0, 1), .next(0, 2), .next(0, -1), .completed(0)])
        XCTAssertEqual(log.values, ["next 1", "next 2", "next -1", "completed"])
        XCTAssertEqual(ownerLog.values, ["next 1"])
    }

    func testPublishRelayAsSignalAndMerge() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = PublishRelay<Int>()
        let b = PublishRelay<Int>()
        let observer = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let subscription = Signal.merge(a.asSignal(), b.asSignal().filter { $0 > 0 }).emit(to: observer)
            a.accept(1)
            b.accept(-2)
            b.accept(3)
            scheduler.start()
            subscription.dispose()
            a.accept(4)
            scheduler.start()
        }
        XCTAssertEqual(observer.events, [.next(0, 1), .next(0, 3)])
    }

    func testASignalDeliversOnTheMainThread() {
        let onMain = Recorder<Bool>()
        let values = Recorder<Int>()
        let relay = PublishRelay<Int>()
        let subscription = relay.asSignal().emit(onNext: { value in
            onMain.append(Thread.isMainThread)
            values.append(value)
        })
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 0..<20 { relay.accept(value) }
            sent.signal()
        }
        sent.wait()
        XCTAssertTrue(waitUntil { values.count == 20 })
        subscription.dispose()
        XCTAssertEqual(values.values, Array(0..<20))
        XCTAssertEqual(Set(onMain.values), [true])
    }
}
