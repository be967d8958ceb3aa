import Foundation
import Reactive
import ReactiveBlocking
import TestSupport
import XCTest

/// How `toBlocking` waits: on sequences that deliver on other threads, on the main thread while
/// `MainScheduler` work must still run, with timeouts, and releasing everything afterwards.
final class BlockingWaitTests: LeakCheckingTestCase {
    func testWaitsForElementsDeliveredOnOtherThreads() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let ticks = Observable<Int>.interval(.milliseconds(1), scheduler: scheduler).take(10)
        XCTAssertEqual(try ticks.toBlocking(timeout: 10).toArray(), Array(0..<10))
        for _ in 0..<10 {
            XCTAssertEqual(try Observable.of(1, 2).subscribe(on: scheduler).toBlocking().toArray(), [1, 2])
        }
    }

    func testMainSchedulerWorkRunsWhileTheMainThreadBlocks() throws {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs tests on the main thread")
        let onMain = Recorder<Bool>()
        let delivered = Observable.of(1, 2, 3)
            .observe(on: MainScheduler.instance)
            .do(onNext: { _ in onMain.append(Thread.isMainThread) })
        // Without the main run loop running, the main queue would never deliver: a timeout.
        XCTAssertEqual(try delivered.toBlocking(timeout: 5).toArray(), [1, 2, 3])
        XCTAssertEqual(onMain.values, [true, true, true])

        let timer = Observable<Int>.timer(.milliseconds(20), scheduler: MainScheduler.instance)
        XCTAssertEqual(try timer.toBlocking(timeout: 5).single(), 0)
    }

    func testAnswersFromAnotherThreadWakeTheBlockedMainThread() throws {
        XCTAssertTrue(Thread.isMainThread)
        let started = Date()
        let late = Observable<Int>.timer(.milliseconds(50), scheduler: SerialDispatchQueueScheduler(qos: .default))
        XCTAssertEqual(try late.toBlocking(timeout: 10).first(), 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the main thread must wake when the answer arrives")
    }

    func testASequenceThatNeverCompletesTimesOut() {
        let disposed = Recorder<Bool>()
        let stuck = Observable.of(1, 2).concat(Observable<Int>.never()).do(onDispose: { disposed.append(true) })
        let started = Date()
        XCTAssertThrowsError(try stuck.toBlocking(timeout: 0.1).toArray()) {
            XCTAssertEqual($0 as? ReactiveError, .timeout)
            XCTAssertEqual($0 as? RxError, .timeout)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.1)
        XCTAssertEqual(disposed.values, [true], "the timed-out subscription is disposed")

        guard case .failed(let elements, let error) = stuck.toBlocking(timeout: .milliseconds(100)).materialize() else {
            return XCTFail("expected .failed")
        }
        XCTAssertEqual(elements, [1, 2], "what came before the timeout is kept")
        XCTAssertEqual(error as? ReactiveError, .timeout)
        XCTAssertThrowsError(try stuck.toBlocking(timeout: 0.05).last()) { XCTAssertEqual($0 as? ReactiveError, .timeout) }
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.05).first()) {
            XCTAssertEqual($0 as? ReactiveError, .timeout)
        }
        XCTAssertThrowsError(try Single<Int>.never().toBlocking(timeout: 0.05).single()) {
            XCTAssertEqual($0 as? ReactiveError, .timeout)
        }
    }

    func testTimesOutOffTheMainThreadToo() {
        let outcome = Recorder<String>()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                _ = try Observable<Int>.never().toBlocking(timeout: 0.05).first()
                outcome.append("returned")
            } catch {
                outcome.append(String(describing: error as? ReactiveError))
            }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(outcome.values, [String(describing: ReactiveError.timeout as ReactiveError?)])
    }

    func testATimeoutLongerThanTheWorkChangesNothing() throws {
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let quick = Observable.of(1, 2).delay(.milliseconds(10), scheduler: scheduler)
        XCTAssertEqual(try quick.toBlocking(timeout: 10).toArray(), [1, 2])
    }

    func testEverySubscriptionIsReleasedAfterTheWait() throws {
        let start = Resources.total
        let subject = PublishSubject<Int>()
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        XCTAssertThrowsError(try subject.map { $0 * 2 }.toBlocking(timeout: 0.05).first())
        XCTAssertFalse(subject.hasObservers, "the timed-out subscription left the subject")
        XCTAssertEqual(try Observable.of(1, 2).observe(on: scheduler).toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try Observable<Int>.interval(.milliseconds(1), scheduler: scheduler).toBlocking().first(), 0)
        XCTAssertTrue(waitUntil { Resources.total == start })
        XCTAssertEqual(Resources.total, start)
    }
}
