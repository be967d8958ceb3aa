import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class BindTests: LeakCheckingTestCase {
    func testBindsToSeveralObserversAtOnceWithEveryEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.bind(to: first, second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(300)])
        XCTAssertEqual(second.events, first.events)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testBindsToSubjectsAndOptionalObservers() {
        let subject = PublishSubject<Int>()
        let optional = PublishSubject<Int?>()
        let values = Recorder<String>()
        let a = subject.subscribe(onNext: { values.append("s\($0)") }, onError: { _ in values.append("s error") })
        let b = optional.subscribe(onNext: { values.append("o\($0 ?? -1)") })
        let binding = Observable.of(1, 2).concat(Observable.error(TestError(1))).bind(to: subject)
        _ = Observable.just(3).bind(to: optional)
        XCTAssertEqual(values.values, ["s1", "s2", "s error", "o3"])
        binding.dispose()
        a.dispose()
        b.dispose()
    }

    func testBindsToRelaysWhichIgnoreCompletion() {
        let publish = PublishRelay<Int>()
        let other = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let values = Recorder<Int>()
        let listening = publish.subscribe(onNext: { values.append($0) })
        let otherListening = other.subscribe(onNext: { values.append($0 * 100) })
        _ = Observable.of(1, 2).bind(to: publish, other)
        _ = Observable.of(5, 6).bind(to: behavior)
        _ = Observable.just(7).bind(to: optionalBehavior)
        XCTAssertEqual(values.values, [1, 100, 2, 200])
        XCTAssertEqual(behavior.value, 6)
        XCTAssertEqual(optionalBehavior.value, 7)
        publish.accept(3)
        XCTAssertEqual(values.values.last, 3)
        listening.dispose()
        otherListening.dispose()
    }

    func testABindingErrorIsReportedWithoutCrashing() {
        let capture = DebugLogCapture()
        defer { capture.restore() }
        let lines = capture.lines
        let relay = PublishRelay<Int>()
        _ = Observable<Int>.error(TestError(9)).bind(to: relay)
        _ = Observable<Int>.error(TestError(8)).bind(onNext: { _ in })
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines.values[0].hasPrefix("Binding error to publish relay: "), lines.values[0])
        XCTAssertTrue(lines.values[1].hasPrefix("Binding error: "), lines.values[1])
    }

    func testBindOnNextAndBinderFunctions() {
        let values = Recorder<Int>()
        let subscription = Observable.of(1, 2).bind(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [1, 2])
        subscription.dispose()

        let seen = Recorder<Int>()
        let binding = Observable.of(1, 2, 3).bind(to: { source in source.subscribe(onNext: { seen.append($0 * 10) }) })
        XCTAssertEqual(seen.values, [10, 20, 30])
        binding.dispose()
        let curried = Observable.just(4).bind(to: { source in
            { (offset: Int) in source.map { $0 + offset }.subscribe(onNext: { seen.append($0) }) }
        }, curriedArgument: 10)
        XCTAssertEqual(seen.values.last, 14)
        curried.dispose()
    }

    func testDisposingTheBindingStopsIt() {
        let source = PublishSubject<Int>()
        let relay = BehaviorRelay(value: 0)
        let binding = source.bind(to: relay)
        source.onNext(1)
        binding.dispose()
        source.onNext(2)
        XCTAssertEqual(relay.value, 1)
        XCTAssertFalse(source.hasObservers)
    }
}
