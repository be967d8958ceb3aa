import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's `mapObserver` cases.
final class MapObserverTests: LeakCheckingTestCase {
    func testMapsElementsAndPassesTerminalEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String.self)
        let mapped: AnyObserver<Int> = AnyObserver(observer).mapObserver { "\($0 * 2)" }
        mapped.onNext(1)
        mapped.onNext(2)
        mapped.onCompleted()
        XCTAssertEqual(observer.events, [.next(0, "2"), .next(0, "4"), .completed(0)])
    }

    func testPassesAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String.self)
        let mapped: AnyObserver<Int> = AnyObserver(observer).mapObserver { "\($0)" }
        mapped.onError(TestError(1))
        XCTAssertEqual(observer.events, [.error(0, TestError(1))])
    }

    func testAThrowingTransformSendsTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String.self)
        let mapped: AnyObserver<Int> = AnyObserver(observer).mapObserver { value in
            if value > 1 { throw TestError(value) }
            return "\(value)"
        }
        mapped.onNext(1)
        mapped.onNext(2)
        XCTAssertEqual(observer.events, [.next(0, "1"), .error(0, TestError(2))])
    }

    func testBindsASubjectThroughAMapping() {
        let subject = PublishSubject<String>()
        let seen = Recorder<String>()
        let subscription = subject.subscribe(onNext: { seen.append($0) })
        let binding = Observable.of(1, 2).bind(to: subject.mapObserver { "#\($0)" })
        XCTAssertEqual(seen.values, ["#1", "#2"])
        binding.dispose()
        subscription.dispose()
    }
}
