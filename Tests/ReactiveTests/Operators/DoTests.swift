import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class DoTests: LeakCheckingTestCase {
    private static func logging(
        _ source: TestableObservable<Int>, into log: Recorder<String>, scheduler: TestScheduler
    ) -> Observable<Int> {
        source
            .do(
                onNext: { log.append("onNext \($0) @\(scheduler.clock)") },
                afterNext: { log.append("afterNext \($0) @\(scheduler.clock)") },
                onError: { _ in log.append("onError @\(scheduler.clock)") },
                onCompleted: { log.append("onCompleted @\(scheduler.clock)") },
                onSubscribe: { log.append("onSubscribe @\(scheduler.clock)") },
                onSubscribed: { log.append("onSubscribed @\(scheduler.clock)") },
                onDispose: { log.append("onDispose @\(scheduler.clock)") }
            )
            .do(onNext: { log.append("downstream \($0)") }, onCompleted: { log.append("downstream completed") })
    }

    func testCallbacksRunInOrderAroundTheEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let log = Recorder<String>()
        let res = scheduler.start { Self.logging(xs, into: log, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(log.values, [
            "onSubscribe @200", "onSubscribed @200",
            "onNext 1 @210", "downstream 1", "afterNext 1 @210",
            "onNext 2 @220", "downstream 2", "afterNext 2 @220",
            "onCompleted @300", "downstream completed", "onDispose @300",
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testOnErrorRunsBeforeTheErrorAndOnDisposeAfterIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        let log = Recorder<String>()
        let res = scheduler.start { Self.logging(xs, into: log, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, TestError(1))])
        XCTAssertEqual(log.values, [
            "onSubscribe @200", "onSubscribed @200",
            "onNext 1 @210", "downstream 1", "afterNext 1 @210",
            "onError @230", "onDispose @230",
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    /// RxSwift's order for a source that ends inside `subscribe`: `onDispose` waits for `onSubscribed`.
    func testSourceCompletingDuringSubscribeCallsOnDisposeAfterOnSubscribed() {
        let log = Recorder<String>()
        let subscription = Observable.just(1)
            .do(onDispose: { log.append("upstream disposed") })
            .do(
                onNext: { log.append("onNext \($0)") },
                onCompleted: { log.append("onCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            )
            .subscribe(onNext: { log.append("downstream \($0)") }, onCompleted: { log.append("downstream completed") })
        subscription.dispose()
        XCTAssertEqual(log.values, [
            "onSubscribe", "onNext 1", "downstream 1", "onCompleted", "downstream completed",
            "upstream disposed", "onSubscribed", "onDispose",
        ])
    }

    func testOnDisposeRunsOnceWhenDisposedAtThousand() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)] as [Recorded<Event<Int>>])
        let log = Recorder<String>()
        let res = scheduler.start { Self.logging(xs, into: log, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(log.values.filter { $0.hasPrefix("onDispose") }, ["onDispose @1000"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testThrowingOnNextErrorsAtTheThrowTickWithoutDeliveringTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let disposed = Recorder<Int>()
        let res = scheduler.start {
            xs.do(
                onNext: { if $0 == 2 { throw TestError(2) } },
                onDispose: { disposed.append(scheduler.clock) }
            )
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(disposed.values, [220])
    }

    func testThrowingOnCompletedTurnsCompletionIntoThatError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.do(onCompleted: { throw TestError(3) }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(300, TestError(3))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testThrowingOnErrorReplacesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(230, TestError(1))] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.do(onError: { _ in throw TestError(4) }) }
        XCTAssertEqual(res.events, [.error(230, TestError(4))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testSingleDoReportsTheSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 5), .completed(10)])
        let log = Recorder<String>()
        let res = scheduler.start {
            xs.asSingle().do(
                onSuccess: { log.append("onSuccess \($0) @\(scheduler.clock)") },
                afterSuccess: { log.append("afterSuccess \($0)") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose @\(scheduler.clock)") }
            )
        }
        XCTAssertEqual(res.events, [.next(210, 5), .completed(210)])
        XCTAssertEqual(log.values, ["onSubscribe", "onSubscribed", "onSuccess 5 @210", "afterSuccess 5", "onDispose @210"])
    }
}
