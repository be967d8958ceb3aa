import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// `using` on `Single`, `Maybe` and `Completable` (RxSwift's `PrimitiveSequence.using`).
final class TraitUsingTests: LeakCheckingTestCase {
    final class Resource: Disposable, Sendable {
        let log: Recorder<String>
        init(log: Recorder<String>) {
            self.log = log
            log.append("created")
        }
        func dispose() { log.append("disposed") }
    }

    func testSingleDisposesTheResourceAfterItsResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let res = scheduler.start {
            Single.using({ Resource(log: log) }, primitiveSequenceFactory: { _ in
                Single.just(1).delay(.seconds(5), scheduler: scheduler)
            })
        }
        XCTAssertEqual(res.events, [.next(205, 1), .completed(205)])
        XCTAssertEqual(log.values, ["created", "disposed"])
    }

    func testMaybeDisposesTheResourceOnDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let res = scheduler.start(disposed: 300) {
            Maybe<Int>.using({ Resource(log: log) }, primitiveSequenceFactory: { _ in .never() })
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(log.values, ["created", "disposed"])
    }

    func testCompletableFailsWhenTheFactoryThrowsAndStillDisposesTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Recorder<String>()
        let res = scheduler.start {
            Completable.using({ Resource(log: log) }, primitiveSequenceFactory: { _ in throw TestError(3) })
        }
        XCTAssertEqual(res.events, [.error(200, TestError(3))])
        XCTAssertEqual(log.values, ["created", "disposed"])
    }
}
