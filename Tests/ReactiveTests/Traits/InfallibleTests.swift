import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's `InfallibleTest` cases, and the operators and subscriptions of `Infallible`.
final class InfallibleTests: LeakCheckingTestCase {
    func testAsInfallibleOnErrorJustReturnEndsWithTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(220, TestError(1))])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 999) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 999), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAsInfallibleOnErrorFallbackToContinuesWithTheFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError(1))])
        let res = scheduler.start { xs.asInfallible(onErrorFallbackTo: Infallible.of(7, 8)) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 7), .next(220, 8), .completed(220)])
    }

    func testAsInfallibleOnErrorRecoverSeesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError(5))])
        let res = scheduler.start {
            xs.asInfallible(onErrorRecover: { error in .just((error as? TestError)?.code ?? -1) })
        }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 5), .completed(220)])
    }

    func testWithoutAnErrorTheSourcePassesUnchanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0) }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(230)])
    }

    func testCreateDeliversNextAndCompletedAndNothingAfter() {
        let infallible = Infallible<Int>.create { observer in
            observer(.next(1))
            observer(.next(2))
            observer(.completed)
            observer(.next(3))
            return Disposables.create()
        }
        let seen = Recorder<String>()
        infallible.subscribe(
            onNext: { seen.append("\($0)") }, onCompleted: { seen.append("completed") },
            onDisposed: { seen.append("disposed") }
        )
        XCTAssertEqual(seen.values, ["1", "2", "completed", "disposed"])
    }

    func testOperatorsKeepTheTrait() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Infallible.from([1, 2, 3, 4, 5, 6])
                .map { $0 * 10 }
                .filter { $0 != 20 }
                .compactMap { $0 == 60 ? nil : $0 }
                .scan(0) { $0 + $1 }
                .distinctUntilChanged()
                .startWith(-1)
                .skip(1)
                .take(3)
                .asObservable()
        }
        XCTAssertEqual(res.events, [.next(200, 10), .next(200, 40), .next(200, 80), .completed(200)])
    }

    func testFlatMapLatestAndConcatMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Infallible.of(1, 2).concatMap { Infallible.of($0, $0 * 10) }
                .flatMap { Infallible.just($0 + 1) }
                .flatMapLatest { Infallible.just($0) }
        }
        XCTAssertEqual(res.events, [.next(200, 2), .next(200, 11), .next(200, 3), .next(200, 21), .completed(200)])
    }

    func testTimeOperatorsRunOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Infallible<Int>.interval(.seconds(10), scheduler: scheduler).take(3)
                .delay(.seconds(1), scheduler: scheduler)
        }
        XCTAssertEqual(res.events, [.next(211, 0), .next(221, 1), .next(231, 2), .completed(231)])
    }

    func testZipAndCombineLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let zipped = scheduler.start { Infallible.zip(Infallible.of(1, 2), Infallible.of("a", "b")) { "\($0)\($1)" } }
        XCTAssertEqual(zipped.events, [.next(200, "1a"), .next(200, "2b"), .completed(200)])
        let latest = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Infallible.combineLatest(Infallible.just(1), Infallible.of(5, 6)) { $0 + $1 }
        }
        XCTAssertEqual(latest.events, [.next(1200, 6), .next(1200, 7), .completed(1200)])
    }

    func testBindToARelayAndShare() {
        let relay = BehaviorRelay(value: 0)
        let shared = Infallible.of(1, 2, 3).share(replay: 1)
        let subscription = shared.bind(to: relay)
        XCTAssertEqual(relay.value, 3)
        subscription.dispose()
    }

    func testSubscribeWithHoldsTheObjectWeakly() {
        final class Owner: Sendable {}
        let seen = Recorder<Int>()
        let owner = Owner()
        Infallible.of(1, 2).subscribe(with: owner, onNext: { _, value in seen.append(value) })
        XCTAssertEqual(seen.values, [1, 2])
    }
}
