import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class SharedSequenceCombiningTests: LeakCheckingTestCase {
    func testCombineLatestOfTwoAndThreeDrivers() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let b = scheduler.createHotObservable([.next(220, "x"), .error(250, TestError(1))])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                Driver.combineLatest(a.asDriver(onErrorJustReturn: 0), b.asDriver(onErrorJustReturn: "e")) { "\($0)\($1)" }
            }
            XCTAssertEqual(res.events, [.next(220, "1x"), .next(230, "2x"), .next(250, "2e"), .completed(260)])
        }
        XCTAssertEqual(a.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
        let d = scheduler.createHotObservable([.next(1210, 1), .next(1230, 2)])
        let e = scheduler.createHotObservable([.next(1220, 10)])
        let f = scheduler.createHotObservable([.next(1225, 100)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
                Driver.combineLatest(
                    d.asDriver(onErrorJustReturn: 0), e.asDriver(onErrorJustReturn: 0), f.asDriver(onErrorJustReturn: 0)
                ).map { $0 + $1 + $2 }
            }
            XCTAssertEqual(res.events, [.next(1225, 111), .next(1230, 112)])
        }
        XCTAssertEqual(d.subscriptions, [Subscription(1200, 1300)])
    }

    func testZipOfTwoAndThreeSignals() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let b = scheduler.createHotObservable([.next(215, 10), .error(240, TestError(1))])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                Signal.zip(a.asSignal(onErrorJustReturn: 0), b.asSignal(onErrorJustReturn: 20)).map { $0 + $1 }
            }
            XCTAssertEqual(res.events, [.next(215, 11), .next(240, 22)])
        }
        let c = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2)])
        let d = scheduler.createHotObservable([.next(1211, 3), .next(1221, 4)])
        let e = scheduler.createHotObservable([.next(1212, 5)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
                Signal.zip(
                    c.asSignal(onErrorJustReturn: 0), d.asSignal(onErrorJustReturn: 0), e.asSignal(onErrorJustReturn: 0)
                ) { $0 * 100 + $1 * 10 + $2 }
            }
            XCTAssertEqual(res.events, [.next(1212, 135)], "the second pair waits for e")
        }
        XCTAssertEqual(c.subscriptions, [Subscription(1200, 1300)])
    }

    func testDisposingACombinationReleasesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1)])
        let b = scheduler.createHotObservable([.next(220, 2)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start(created: 100, subscribed: 200, disposed: 300) {
                Driver.zip(a.asDriver(onErrorJustReturn: 0), b.asDriver(onErrorJustReturn: 0))
                    .map { $0 + $1 }
            }
            XCTAssertEqual(res.events, [.next(220, 3)])
        }
        XCTAssertEqual(a.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 300)])
    }
}
