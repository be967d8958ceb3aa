import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's `InfallibleCombineLatestTest` (its expected values as it writes them), and the tuple
/// and selector forms of `Infallible.zip` and `combineLatest` for 2 to 8 sources.
final class InfallibleArityTests: LeakCheckingTestCase {
    /// A cold infallible emitting `value` at tick 1 after subscription, then nothing.
    private func stream(_ scheduler: TestScheduler, _ value: Int = 1) -> Infallible<Int> {
        scheduler.createColdObservable([.next(1, value)]).asInfallible(onErrorFallbackTo: .never())
    }

    func testCombineLatestOfTwoAsATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = stream(scheduler), second = stream(scheduler)
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) {
            Infallible.combineLatest(first, second).map { $0 + $1 }
        }
        XCTAssertEqual(observer.events, [.next(1, 2)])
    }

    func testCombineLatestOfThreeAsATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = stream(scheduler), second = stream(scheduler), third = stream(scheduler)
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) {
            Infallible.combineLatest(first, second, third).map { $0 + $1 + $2 }
        }
        XCTAssertEqual(observer.events, [.next(1, 3)])
    }

    func testCombineLatestOfFourAsATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...4).map { _ in stream(scheduler) }
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) {
            Infallible.combineLatest(s[0], s[1], s[2], s[3])
                .map { (a: Int, b: Int, c: Int, d: Int) -> Int in a + b + c + d }
        }
        XCTAssertEqual(observer.events, [.next(1, 4)])
    }

    func testCombineLatestOfFiveAsATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...5).map { _ in stream(scheduler) }
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) {
            Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4])
                .map { (a: Int, b: Int, c: Int, d: Int, e: Int) -> Int in a + b + c + d + e }
        }
        XCTAssertEqual(observer.events, [.next(1, 5)])
    }

    func testCombineLatestOfSixAsATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...6).map { _ in stream(scheduler) }
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) {
            Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5])
                .map { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) -> Int in a + b + c + d + e + f }
        }
        XCTAssertEqual(observer.events, [.next(1, 6)])
    }

    func testCombineLatestOfSevenAsATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...7).map { _ in stream(scheduler) }
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) {
            Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
                .map { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int) -> Int in a + b + c + d + e + f + g }
        }
        XCTAssertEqual(observer.events, [.next(1, 7)])
    }

    func testCombineLatestOfEightAsATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...8).map { _ in stream(scheduler) }
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) {
            Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
                .map { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int) -> Int in a + b + c + d + e + f + g + h }
        }
        XCTAssertEqual(observer.events, [.next(1, 8)])
    }

    func testCombineLatestOfEightWithASelectorSeesEachSourcesLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...8).map { stream(scheduler, $0) }
        let late = scheduler.createColdObservable([.next(5, 100), .completed(6)]).asInfallible(onErrorJustReturn: 0)
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) {
            Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], late) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
        }
        XCTAssertEqual(observer.events, [.next(5, 128)], "1 + ... + 7 = 28, then the eighth source's 100")
    }

    func testZipOfFiveWithASelectorAndAsATuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (1...5).map { n in Infallible.of(n, n * 10) }
        let selected = scheduler.start {
            Infallible.zip(sources[0], sources[1], sources[2], sources[3], sources[4]) { $0 + $1 + $2 + $3 + $4 }
        }
        XCTAssertEqual(selected.events, [.next(200, 15), .next(200, 150), .completed(200)])
        let tuples = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Infallible.zip(sources[0], sources[1], sources[2], sources[3], sources[4]).map { "\($0)\($1)\($2)\($3)\($4)" }
        }
        XCTAssertEqual(tuples.events, [.next(1200, "12345"), .next(1200, "1020304050"), .completed(1200)])
    }
}
