import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class GenerateTests: LeakCheckingTestCase {
    func testEmitsStatesWhileTheConditionHolds() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 1, condition: { $0 < 20 }, scheduler: scheduler, iterate: { $0 * 3 })
        }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 3), .next(200, 9), .completed(200)])
    }

    func testAFalseInitialConditionCompletesAtOnce() {
        let values = Recorder<Int>()
        let completed = Recorder<Bool>()
        _ = Observable.generate(initialState: 5, condition: { $0 < 0 }, iterate: { $0 + 1 })
            .subscribe(onNext: { values.append($0) }, onCompleted: { completed.append(true) })
        XCTAssertEqual(values.values, [])
        XCTAssertEqual(completed.values, [true])
    }

    func testAThrowingConditionOrIterateFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let condition = scheduler.start {
            Observable.generate(initialState: 1, condition: { value -> Bool in
                if value == 2 { throw TestError(1) }
                return true
            }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        XCTAssertEqual(condition.events, [.next(200, 1), .error(200, TestError(1))])

        let iterateScheduler = TestScheduler(initialClock: 0)
        let iterate = iterateScheduler.start {
            Observable.generate(initialState: 1, condition: { _ in true }, scheduler: iterateScheduler, iterate: { _ in throw TestError(2) })
        }
        XCTAssertEqual(iterate.events, [.next(200, 1), .error(200, TestError(2))])
    }

    func testDisposeStopsAnEndlessGenerator() {
        let values = Recorder<Int>()
        _ = Observable.generate(initialState: 0, condition: { _ in true }, iterate: { $0 + 1 })
            .take(5)
            .subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [0, 1, 2, 3, 4])
    }

    func testEachSubscriptionStartsFromTheInitialState() {
        let values = Recorder<Int>()
        let source = Observable.generate(initialState: 0, condition: { $0 < 2 }, iterate: { $0 + 1 })
        _ = source.subscribe(onNext: { values.append($0) })
        _ = source.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [0, 1, 0, 1])
    }
}
