import Reactive
import ReactiveTesting
import TestSupport
import XCTest

final class ScheduledDisposableTests: LeakCheckingTestCase {
    func testDisposesTheHeldDisposableOnTheSchedulerOnce() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: true)
        let disposedAt = Recorder<Int>()
        let scheduled = ScheduledDisposable(
            scheduler: scheduler, disposable: Disposables.create { disposedAt.append(scheduler.clock) }
        )
        scheduler.scheduleAt(10) {
            scheduled.dispose()
            scheduled.dispose()
        }
        scheduler.start()
        XCTAssertTrue(scheduled.isDisposed)
        XCTAssertEqual(disposedAt.values, [11], "the disposal is scheduled (RxTest's +1), once")
    }
}
