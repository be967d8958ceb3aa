import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's `AsyncSubjectTests` cases.
final class AsyncSubjectTests: LeakCheckingTestCase {
    func testObserversGetTheLastElementAndTheCompletionWhenItCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(110, 2), .next(220, 3), .next(270, 4), .next(340, 5), .next(410, 6),
            .next(520, 7), .completed(630), .next(640, 9), .completed(650), .error(660, TestError(1)),
        ])
        let subject = AsyncSubject<Int>()
        let results1 = scheduler.createObserver(Int.self)
        let results2 = scheduler.createObserver(Int.self)
        let results3 = scheduler.createObserver(Int.self)
        let bag = Recorder<any Disposable>()
        scheduler.scheduleAt(100) { bag.append(xs.subscribe(subject)) }
        scheduler.scheduleAt(300) { bag.append(subject.subscribe(results1)) }
        scheduler.scheduleAt(400) { bag.append(subject.subscribe(results2)) }
        scheduler.scheduleAt(900) { bag.append(subject.subscribe(results3)) }
        scheduler.scheduleAt(1000) { bag.values.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(results1.events, [.next(630, 7), .completed(630)])
        XCTAssertEqual(results2.events, [.next(630, 7), .completed(630)])
        XCTAssertEqual(results3.events, [.next(900, 7), .completed(900)])
    }

    func testAnErrorReachesObserversWithoutTheLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 3), .next(270, 4), .error(630, TestError(2)), .next(640, 9)])
        let subject = AsyncSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let bag = Recorder<any Disposable>()
        scheduler.scheduleAt(100) { bag.append(xs.subscribe(subject)) }
        scheduler.scheduleAt(300) { bag.append(subject.subscribe(early)) }
        scheduler.scheduleAt(900) { bag.append(subject.subscribe(late)) }
        scheduler.scheduleAt(1000) { bag.values.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(early.events, [.error(630, TestError(2))])
        XCTAssertEqual(late.events, [.error(900, TestError(2))])
    }

    func testCompletingWithoutElementsSendsOnlyTheCompletion() {
        let subject = AsyncSubject<Int>()
        let events = Recorder<String>()
        let subscription = subject.subscribe(onNext: { events.append("\($0)") }, onCompleted: { events.append("completed") })
        subject.onCompleted()
        XCTAssertEqual(events.values, ["completed"])
        subscription.dispose()
    }

    func testADisposedObserverGetsNothingAndHasObserversFollows() {
        let subject = AsyncSubject<Int>()
        XCTAssertFalse(subject.hasObservers)
        let events = Recorder<Int>()
        let subscription = subject.subscribe(onNext: { events.append($0) })
        XCTAssertTrue(subject.hasObservers)
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(events.values, [])
    }
}
