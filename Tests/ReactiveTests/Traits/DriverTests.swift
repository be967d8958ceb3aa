import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// A Sendable object for `drive(with:)`, released by the test to check the weak hold.
private final class Owner: Sendable {
    let log = Recorder<String>()
}

final class DriverTests: LeakCheckingTestCase {
    // MARK: conversions, in virtual time

    func testAsDriverOnErrorJustReturnEndsWithTheFallbackElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError(1))])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { xs.asDriver(onErrorJustReturn: -1) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, -1), .completed(230)])
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testAsDriverOnErrorDriveWithContinuesWithTheFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let fallback = scheduler.createColdObservable([.next(10, 7), .next(20, 8)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { xs.asDriver(onErrorDriveWith: fallback.asDriver(onErrorJustReturn: 0)) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(240, 7), .next(250, 8)])
        }
        XCTAssertEqual(fallback.subscriptions, [Subscription(230, 1000)])
    }

    func testAsDriverOnErrorRecoverGetsTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(5))])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                xs.asDriver(onErrorRecover: { error in Driver.just((error as? TestError)?.code ?? -1) })
            }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 5), .completed(230)])
        }
    }

    func testDisposingADriverReleasesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { xs.asDriver(onErrorJustReturn: -1) }
            XCTAssertEqual(res.events, [.next(210, 1)])
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testADriverSharesOneSubscriptionAndReplaysTheLatestElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let subscriptions = Recorder<any Disposable>()
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: -1)
            scheduler.scheduleAt(200) { subscriptions.append(driver.drive(first)) }
            scheduler.scheduleAt(230) { subscriptions.append(driver.drive(late)) }
            scheduler.scheduleAt(300) { subscriptions.values.forEach { $0.dispose() } }
            scheduler.start()
        }
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .next(240, 3)])
        XCTAssertEqual(late.events, [.next(230, 2), .next(240, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testCreationOperatorsDeliverOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertEqual(scheduler.start { Driver.just(1) }.events, [.next(200, 1), .completed(200)])
            XCTAssertEqual(
                scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { Driver.of(1, 2, 3) }.events,
                [.next(1200, 1), .next(1200, 2), .next(1200, 3), .completed(1200)]
            )
            XCTAssertEqual(
                scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { Driver<Int>.empty() }.events,
                [.completed(2200)]
            )
            XCTAssertEqual(
                scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) { Driver<Int>.never() }.events,
                []
            )
            XCTAssertEqual(
                scheduler.start(created: 4100, subscribed: 4200, disposed: 5000) { Driver.from(optional: 4) }.events,
                [.next(4200, 4), .completed(4200)]
            )
            XCTAssertEqual(
                scheduler.start(created: 5100, subscribed: 5200, disposed: 6000) { Driver.from(1...2) }.events,
                [.next(5200, 1), .next(5200, 2), .completed(5200)]
            )
        }
    }

    func testSharingSchedulerMockPutsThePreviousSchedulerBack() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertTrue(SharingScheduler.make() is TestScheduler)
        }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
        XCTAssertThrowsError(try SharingScheduler.mock(scheduler: scheduler) { throw TestError(1) })
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    // MARK: operators

    func testMapFilterAndDistinctUntilChanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 1), .next(230, 2), .next(240, 3), .next(250, 4), .error(260, TestError(1)),
        ])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                xs.asDriver(onErrorJustReturn: 0)
                    .distinctUntilChanged()
                    .filter { $0 != 3 }
                    .map { "\($0)" }
            }
            XCTAssertEqual(res.events, [.next(210, "1"), .next(230, "2"), .next(250, "4"), .next(260, "0"), .completed(260)])
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testDistinctUntilChangedWithAKeyOrAComparer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 11), .next(230, 2), .next(240, 12)])
        SharingScheduler.mock(scheduler: scheduler) {
            let byKey = scheduler.start { xs.asDriver(onErrorJustReturn: 0).distinctUntilChanged { $0 % 10 } }
            XCTAssertEqual(byKey.events, [.next(210, 1), .next(230, 2)])
        }
        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .next(1230, 5)])
        SharingScheduler.mock(scheduler: scheduler) {
            let byComparer = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
                ys.asDriver(onErrorJustReturn: 0).distinctUntilChanged { abs($0 - $1) < 2 }
            }
            XCTAssertEqual(byComparer.events, [.next(1210, 1), .next(1230, 5)])
        }
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1300)])
    }

    func testFlatMapLatestFollowsTheNewestInnerDriver() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .error(300, TestError(1))])
        let inner1 = scheduler.createColdObservable([.next(10, 10), .next(40, 11)])
        let inner2 = scheduler.createColdObservable([.next(10, 20), .error(20, TestError(2))])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                xs.asDriver(onErrorJustReturn: 0).flatMapLatest { value in
                    (value == 1 ? inner1 : inner2).asDriver(onErrorJustReturn: -value)
                }
            }
            // The outer error becomes 0 at 300, whose inner driver runs to its own end.
            XCTAssertEqual(res.events, [
                .next(220, 10), .next(250, 20), .next(260, -2), .next(310, 20), .next(320, 0), .completed(320),
            ])
        }
        XCTAssertEqual(inner1.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(inner2.subscriptions, [Subscription(240, 260), Subscription(300, 320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFlatMapLatestDisposedReleasesOuterAndInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let inner = scheduler.createColdObservable([.next(900, 1)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                xs.asDriver(onErrorJustReturn: 0).flatMapLatest { _ in inner.asDriver(onErrorJustReturn: 0) }
            }
            XCTAssertEqual(res.events, [])
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 1000)])
    }

    // MARK: drive

    func testDriveSendsToObserversAndRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let observer = scheduler.createObserver(Int.self)
        let optionals = scheduler.createObserver(Int?.self)
        let relay = BehaviorRelay(value: 0)
        let optionalRelay = BehaviorRelay<Int?>(value: nil)
        let relayValues = Recorder<Int>()
        let watch = relay.subscribe(onNext: { relayValues.append($0) })
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: -1)
            scheduler.scheduleAt(200) {
                _ = driver.drive(observer, observer)
                _ = driver.drive(optionals)
                _ = driver.drive(relay)
                _ = driver.drive(optionalRelay)
            }
            scheduler.start()
        }
        watch.dispose()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(210, 1), .next(220, 2), .next(220, 2), .completed(230), .completed(230)])
        XCTAssertEqual(optionals.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(relayValues.values, [0, 1, 2])
        XCTAssertEqual(optionalRelay.value, 2)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDriveWithClosuresAndWithAWeakObject() {
        let subject = PublishSubject<Int>()
        let log = Recorder<String>()
        var owner: Owner? = Owner()
        let ownerLog = owner?.log ?? Recorder<String>()
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = subject.asDriver(onErrorJustReturn: -1)
            let closures = driver.drive(
                onNext: { log.append("next \($0)") },
                onCompleted: { log.append("completed") },
                onDisposed: { log.append("disposed") }
            )
            let weak = driver.drive(
                with: owner ?? Owner(),
                onNext: { owner, value in owner.log.append("next \(value)") },
                onDisposed: { $0.log.append("disposed") }
            )
            let silent = driver.drive()
            subject.onNext(1)
            scheduler.start()
            owner = nil
            subject.onNext(2)
            subject.onError(TestError(1))
            scheduler.start()
            closures.dispose()
            weak.dispose()
            silent.dispose()
        }
        XCTAssertEqual(log.values, ["next 1", "next 2", "next -1", "completed", "disposed"])
        XCTAssertEqual(ownerLog.values, ["next 1"])
    }

    func testDriveWithABinderFunction() {
        let relay = PublishRelay<Int>()
        let seen = Recorder<Int>()
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = relay.asObservable().asDriver(onErrorJustReturn: 0)
            let subscription = driver.drive { observable in observable.subscribe(onNext: { seen.append($0) }) }
            let curried = driver.drive({ observable in { (offset: Int) in
                observable.subscribe(onNext: { seen.append($0 + offset) })
            } }, curriedArgument: 100)
            relay.accept(3)
            scheduler.start()
            subscription.dispose()
            curried.dispose()
            relay.accept(4)
            scheduler.start()
        }
        XCTAssertEqual(seen.values, [3, 103])
    }

    func testBehaviorRelayAsDriverStartsWithTheCurrentValue() {
        let relay = BehaviorRelay(value: 1)
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let subscription = relay.asDriver().drive(observer)
            scheduler.start()
            relay.accept(2)
            scheduler.start()
            subscription.dispose()
            relay.accept(3)
            scheduler.start()
        }
        XCTAssertEqual(observer.events, [.next(0, 1), .next(0, 2)])
    }

    // MARK: the main thread

    func testADriverDeliversOnTheMainThread() {
        let onMain = Recorder<Bool>()
        let values = Recorder<Int>()
        let background = ConcurrentDispatchQueueScheduler(qos: .default)
        let driver = Observable.of(1, 2, 3)
            .subscribe(on: background)
            .map { value -> Int in
                if value == 3 { throw TestError(1) }
                return value
            }
            .asDriver(onErrorJustReturn: -1)
        let subscription = driver.drive(onNext: { value in
            onMain.append(Thread.isMainThread)
            values.append(value)
        })
        XCTAssertTrue(waitUntil { values.count == 3 })
        subscription.dispose()
        XCTAssertEqual(values.values, [1, 2, -1])
        XCTAssertEqual(Set(onMain.values), [true])
    }
}
