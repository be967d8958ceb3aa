import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class TraitZipTests: LeakCheckingTestCase {
    private func answer(_ value: Int, at time: Int, _ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createColdObservable([.next(time, value), .completed(time)])
    }

    func testSingleZipOfEightAnswersWhenTheLastOneDoes() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (1...8).map { answer($0, at: $0 * 10, scheduler) }
        let s = sources.map { $0.asSingle() }
        let tuple = scheduler.start {
            Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { a, b, c, d, e, f, g, h in
                [a, b, c, d, e, f, g, h]
            }
        }
        XCTAssertEqual(tuple.events, [.next(280, [1, 2, 3, 4, 5, 6, 7, 8]), .completed(280)])
        for (index, source) in sources.enumerated() {
            XCTAssertEqual(source.subscriptions, [Subscription(200, 200 + (index + 1) * 10)])
        }
        let selected = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
        }
        XCTAssertEqual(selected.events, [.next(1280, 36), .completed(1280)])
    }

    func testSingleZipOfEveryArityCombinesInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (1...7).map { Single.just($0) }
        let results = Recorder<[Int]>()
        Single.zip(s[0], s[1]).subscribe(onSuccess: { results.append([$0.0, $0.1]) })
        Single.zip(s[0], s[1], s[2]).subscribe(onSuccess: { results.append([$0.0, $0.1, $0.2]) })
        Single.zip(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }.subscribe(onSuccess: { results.append($0) })
        Single.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }.subscribe(onSuccess: { results.append($0) })
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]).subscribe(onSuccess: { results.append([$0.0, $0.5]) })
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).subscribe(onSuccess: { results.append([$0.0, $0.6]) })
        XCTAssertEqual(results.values, [[1, 2], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5], [1, 6], [1, 7]])
        _ = scheduler
    }

    func testSingleZipFailsAtTheFirstFailureAndDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = answer(1, at: 50, scheduler)
        let b = scheduler.createColdObservable([.error(20, TestError(1))] as [Recorded<Event<Int>>])
        let c = answer(3, at: 10, scheduler)
        let res = scheduler.start { Single.zip(a.asSingle(), b.asSingle(), c.asSingle()) }
        XCTAssertEqual(res.events.map(\.time), [220])
        XCTAssertEqual(res.events.first?.value.error as? TestError, TestError(1))
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(c.subscriptions, [Subscription(200, 210)])
        let throwing = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Single.zip(a.asSingle(), c.asSingle(), c.asSingle()) { _, _, _ -> Int in throw TestError(2) }
        }
        XCTAssertEqual(throwing.events, [.error(1250, TestError(2))])
    }

    func testSingleZipDisposedBeforeTheAnswersReleasesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = answer(1, at: 900, scheduler)
        let b = answer(2, at: 10, scheduler)
        let res = scheduler.start { Single.zip(a.asSingle(), b.asSingle(), b.asSingle(), b.asSingle()) }
        XCTAssertEqual(res.events.count, 0)
        XCTAssertEqual(a.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 210), Subscription(200, 210), Subscription(200, 210)])
    }

    func testSingleZipOfACollectionKeepsTheCollectionsOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = [answer(1, at: 30, scheduler), answer(2, at: 10, scheduler), answer(3, at: 20, scheduler)]
        let res = scheduler.start { Single.zip(sources.map { $0.asSingle() }) }
        XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .completed(230)])
        let selected = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Single.zip(sources.map { $0.asSingle() }) { $0.map(String.init).joined() }
        }
        XCTAssertEqual(selected.events, [.next(1230, "123"), .completed(1230)])
        let empty = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            Single.zip([Single<Int>]()) { $0.count }
        }
        XCTAssertEqual(empty.events, [.next(2200, 0), .completed(2200)])
    }

    func testSingleZipOfACollectionFailsAtTheFirstFailureAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = answer(1, at: 500, scheduler)
        let failing = scheduler.createColdObservable([.error(20, TestError(1))] as [Recorded<Event<Int>>])
        let res = scheduler.start { Single.zip([slow.asSingle(), failing.asSingle()]) }
        XCTAssertEqual(res.events, [.error(220, TestError(1))])
        XCTAssertEqual(slow.subscriptions, [Subscription(200, 220)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            Single.zip(ContiguousArray([slow.asSingle(), slow.asSingle()]))
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(Array(slow.subscriptions.suffix(2)), [Subscription(1200, 1300), Subscription(1200, 1300)])
    }

    func testMaybeZipAnswersWhenAllHaveAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = (1...8).map { answer($0, at: 90 - $0 * 10, scheduler) }
        let m = sources.map { $0.asMaybe() }
        let res = scheduler.start {
            Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]) { $0 * 10_000_000 + $7 }
        }
        XCTAssertEqual(res.events, [.next(280, 10_000_008), .completed(280)])
        let pair = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { Maybe.zip(m[0], m[7]) }
        XCTAssertEqual(pair.events.map(\.time), [1280, 1280])
        XCTAssertEqual(pair.events.first?.value.element?.1, 8)
        let results = Recorder<Int>()
        Maybe.zip(Maybe.just(1), .just(2), .just(3)).subscribe(onSuccess: { results.append($0.0 + $0.1 + $0.2) })
        Maybe.zip(Maybe.just(1), .just(2), .just(3), .just(4)).subscribe(onSuccess: { results.append($0.3) })
        Maybe.zip(Maybe.just(1), .just(2), .just(3), .just(4), .just(5)).subscribe(onSuccess: { results.append($0.4) })
        Maybe.zip(Maybe.just(1), .just(2), .just(3), .just(4), .just(5), .just(6)) { $5 }.subscribe(onSuccess: { results.append($0) })
        Maybe.zip(Maybe.just(1), .just(2), .just(3), .just(4), .just(5), .just(6), .just(7)).subscribe(onSuccess: { results.append($0.6) })
        XCTAssertEqual(results.values, [6, 4, 5, 6, 7])
    }

    func testMaybeZipEndsEmptyWhenBothAreEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Maybe.zip(empty.asMaybe(), empty.asMaybe()) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 220), Subscription(200, 220)])
    }

    /// Pairwise nesting must end exactly when one flat `Observable.zip` of the same sources does.
    func testMaybeZipEndsWhenOneFlatObservableZipWould() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createColdObservable([] as [Recorded<Event<Int>>])
        let empty = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Int>>])
        let late = answer(3, at: 40, scheduler)
        let failing = scheduler.createColdObservable([.error(30, TestError(1))] as [Recorded<Event<Int>>])
        let cases: [(TestableObservable<Int>, TestableObservable<Int>, TestableObservable<Int>)] = [
            (never, empty, never), (empty, late, late), (late, empty, never), (never, late, empty),
            (late, late, empty), (empty, failing, late), (late, never, late),
        ]
        var start = 0
        for (x, y, z) in cases {
            let viaMaybe = scheduler.start(created: start + 100, subscribed: start + 200, disposed: start + 1000) {
                Maybe.zip(x.asMaybe(), y.asMaybe(), z.asMaybe()) { $0 + $1 + $2 }
            }
            let viaObservable = scheduler.start(created: start + 1100, subscribed: start + 1200, disposed: start + 2000) {
                Observable.zip(x, y, z) { $0 + $1 + $2 }
            }
            XCTAssertEqual(
                viaMaybe.events.map { Recorded(time: $0.time - start - 200, value: $0.value) },
                viaObservable.events.map { Recorded(time: $0.time - start - 1200, value: $0.value) }
            )
            start += 2000
        }
    }

    func testMaybeZipFailsAtTheFirstFailureAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = answer(1, at: 500, scheduler)
        let failing = scheduler.createColdObservable([.error(20, TestError(1))] as [Recorded<Event<Int>>])
        let res = scheduler.start { Maybe.zip(slow.asMaybe(), failing.asMaybe()) }
        XCTAssertEqual(res.events.map(\.time), [220])
        XCTAssertEqual(res.events.first?.value.error as? TestError, TestError(1))
        XCTAssertEqual(slow.subscriptions, [Subscription(200, 220)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
            Maybe.zip(slow.asMaybe(), slow.asMaybe()) { $0 + $1 }
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(Array(slow.subscriptions.suffix(2)), [Subscription(1200, 1300), Subscription(1200, 1300)])
    }
}
