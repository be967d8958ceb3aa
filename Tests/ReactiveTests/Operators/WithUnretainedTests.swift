import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class WithUnretainedTests: LeakCheckingTestCase {
    final class Owner: Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    func testPairsEachElementWithTheObject() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner(name: "vm")
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.withUnretained(owner).map { "\($0.0.name) \($0.1)" } }
        XCTAssertEqual(res.events, [.next(210, "vm 1"), .next(220, "vm 2"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testCompletesAtTheFirstElementAfterTheObjectIsGone() {
        let subject = PublishSubject<Int>()
        let log = Recorder<String>()
        var owner: Owner? = Owner(name: "vm")
        let subscription = subject.withUnretained(owner ?? Owner(name: "unused")) { owner, value in "\(owner.name) \(value)" }
            .subscribe(onNext: { log.append($0) }, onCompleted: { log.append("completed") })
        subject.onNext(1)
        owner = nil
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(log.values, ["vm 1", "completed"])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }

    func testErrorThrowingSelectorAndDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner(name: "vm")
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
        let res = scheduler.start { xs.withUnretained(owner).map(\.1) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError(1))])

        let throwScheduler = TestScheduler(initialClock: 0)
        let ys = throwScheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        let thrown = throwScheduler.start { ys.withUnretained(owner) { _, _ -> Int in throw TestError(2) } }
        XCTAssertEqual(thrown.events, [.error(210, TestError(2))])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])

        let disposeScheduler = TestScheduler(initialClock: 0)
        let zs = disposeScheduler.createHotObservable([.next(210, 1), .next(1100, 2)])
        let disposed = disposeScheduler.start { zs.withUnretained(owner).map(\.1) }
        XCTAssertEqual(disposed.events, [.next(210, 1)])
        XCTAssertEqual(zs.subscriptions, [Subscription(200, 1000)])
    }
}
