import Reactive
import TestSupport
import XCTest

final class PublishSubjectTests: LeakCheckingTestCase {
    func testDeliversOnlyEventsSentWhileSubscribed() {
        let subject = PublishSubject<Int>()
        let early = Recorder<Int>()
        let late = Recorder<Int>()
        subject.onNext(0)
        let first = subject.subscribe(onNext: { early.append($0) })
        subject.onNext(1)
        let second = subject.subscribe(onNext: { late.append($0) })
        subject.onNext(2)
        first.dispose()
        subject.onNext(3)
        second.dispose()
        XCTAssertEqual(early.values, [1, 2])
        XCTAssertEqual(late.values, [2, 3])
        XCTAssertFalse(subject.hasObservers)
    }

    func testObserversAreCalledInSubscriptionOrder() {
        let subject = PublishSubject<Int>()
        let calls = Recorder<String>()
        let a = subject.subscribe(onNext: { calls.append("a\($0)") })
        let b = subject.subscribe(onNext: { calls.append("b\($0)") })
        let c = subject.subscribe(onNext: { calls.append("c\($0)") })
        subject.onNext(1)
        b.dispose()
        subject.onNext(2)
        a.dispose()
        c.dispose()
        XCTAssertEqual(calls.values, ["a1", "b1", "c1", "a2", "c2"])
    }

    func testCompletionReachesCurrentAndLateSubscribersAndStopsLaterEvents() {
        let subject = PublishSubject<Int>()
        let current = Recorder<String>()
        subject.subscribe(onNext: { current.append("next \($0)") }, onCompleted: { current.append("completed") },
                          onDisposed: { current.append("disposed") })
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        subject.onError(TestError(1))
        let late = Recorder<String>()
        subject.subscribe(onNext: { late.append("next \($0)") }, onError: { _ in late.append("error") },
                          onCompleted: { late.append("completed") })
        XCTAssertEqual(current.values, ["next 1", "completed", "disposed"])
        XCTAssertEqual(late.values, ["completed"])
        XCTAssertFalse(subject.hasObservers)
    }

    func testErrorReachesLateSubscribers() {
        let subject = PublishSubject<Int>()
        subject.onError(TestError(7))
        let errors = Recorder<TestError?>()
        subject.subscribe(onError: { errors.append($0 as? TestError) })
        XCTAssertEqual(errors.values, [TestError(7)])
    }

    func testTerminalEventReleasesObservers() {
        let subject = PublishSubject<Int>()
        let before = Resources.total
        _ = subject.subscribe(onNext: { _ in })
        _ = subject.subscribe(onNext: { _ in })
        XCTAssertGreaterThan(Resources.total, before)
        subject.onCompleted()
        XCTAssertEqual(Resources.total, before, "a completed subject must not keep its subscriptions alive")
    }

    func testSubscribingThroughAsObservableSeesTheSameEvents() {
        let subject = PublishSubject<String>()
        let values = Recorder<String>()
        let subscription = subject.asObservable().map { $0.uppercased() }.subscribe(onNext: { values.append($0) })
        subject.onNext("a")
        subject.onNext("b")
        subscription.dispose()
        subject.onNext("c")
        XCTAssertEqual(values.values, ["A", "B"])
    }

    /// The registry finds subscriptions by id and leaves holes: removing from the end, from the
    /// middle and from the front (past the point where holes are compacted), then adding again,
    /// must keep exactly the live observers, in subscription order.
    func testObserversRemovedInAnyOrderLeaveTheRestInSubscriptionOrder() {
        let subject = PublishSubject<Int>()
        let received = Recorder<Int>()
        var subscriptions = (0..<40).map { index in subject.subscribe(onNext: { received.append(index * 100 + $0) }) }
        let removed = [39, 38, 20, 3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 25]
        for index in removed { subscriptions[index].dispose() }
        subject.onNext(1)
        let live = (0..<40).filter { !removed.contains($0) }
        XCTAssertEqual(received.values, live.map { $0 * 100 + 1 })

        subscriptions.append(subject.subscribe(onNext: { received.append(4_000 + $0) }))
        for index in live.prefix(5) { subscriptions[index].dispose() }
        subject.onNext(2)
        XCTAssertEqual(Array(received.values.dropFirst(live.count)), live.dropFirst(5).map { $0 * 100 + 2 } + [4_002])
        subscriptions.forEach { $0.dispose() }
        subject.onNext(3)
        XCTAssertFalse(subject.hasObservers)
        XCTAssertEqual(received.count, live.count + live.count - 5 + 1)
    }
}
