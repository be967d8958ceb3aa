import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class UsingTests: LeakCheckingTestCase {
    final class Resource: Disposable, Sendable {
        let log: Recorder<String>
        let id: Int
        init(id: Int, log: Recorder<String>) {
            self.id = id
            self.log = log
            log.append("created \(id)")
        }
        func dispose() { log.append("disposed \(id)") }
    }

    func testTheResourceLivesAsLongAsTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start {
            Observable.using({ Resource(id: 1, log: log) }, observableFactory: { resource in
                log.append("factory \(resource.id) at \(scheduler.clock)")
                return xs.asObservable()
            })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(log.values, ["created 1", "factory 1 at 200", "disposed 1"])
    }

    func testAnErrorDisposesTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start { Observable.using({ Resource(id: 1, log: log) }, observableFactory: { _ in xs.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError(1))])
        XCTAssertEqual(log.values, ["created 1", "disposed 1"])
    }

    func testDisposeDisposesTheSubscriptionThenTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let xs = scheduler.createColdObservable([.next(10, 1), .next(900, 2)])
        let res = scheduler.start {
            Observable.using({ Resource(id: 1, log: log) }, observableFactory: { _ in
                xs.asObservable().do(onDispose: { log.append("source disposed") })
            })
        }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(log.values, ["created 1", "source disposed", "disposed 1"])
    }

    func testThrowingFactoriesFailAndStillDisposeAMadeResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let resourceFails = scheduler.start {
            Observable<Int>.using({ () -> Resource in throw TestError(1) }, observableFactory: { _ in .just(1) })
        }
        XCTAssertEqual(resourceFails.events, [.error(200, TestError(1))])

        let factoryScheduler = TestScheduler(initialClock: 0)
        let factoryFails = factoryScheduler.start {
            Observable<Int>.using({ Resource(id: 2, log: log) }, observableFactory: { _ in throw TestError(2) })
        }
        XCTAssertEqual(factoryFails.events, [.error(200, TestError(2))])
        XCTAssertEqual(log.values, ["created 2", "disposed 2"])
    }

    func testEachSubscriptionGetsItsOwnResource() {
        let log = Recorder<String>()
        let ids = Recorder<Int>()
        let counter = Recorder<Int>()
        let source = Observable<Int>.using({ () -> Resource in
            counter.append(1)
            return Resource(id: counter.count, log: log)
        }, observableFactory: { .just($0.id) })
        _ = source.subscribe(onNext: { ids.append($0) })
        _ = source.subscribe(onNext: { ids.append($0) })
        XCTAssertEqual(ids.values, [1, 2])
        XCTAssertEqual(log.values, ["created 1", "disposed 1", "created 2", "disposed 2"])
    }
}
