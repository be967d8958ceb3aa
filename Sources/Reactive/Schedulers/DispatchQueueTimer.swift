import Foundation
import Synchronization

/// The scheduling the dispatch-queue schedulers share: now, after a delay, periodically.
enum DispatchQueueTimer {
    static func schedule(on queue: DispatchQueue, action: @escaping @Sendable () -> Void) -> any Disposable {
        let pending = ScheduledAction(action)
        queue.async { pending.run() }
        return pending
    }

    static func schedule(
        on queue: DispatchQueue, after dueTime: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let pending = ScheduledAction(action)
        let deadline = DispatchTime.now() + .nanoseconds(dueTime.clampedNanoseconds)
        queue.asyncAfter(deadline: deadline) { pending.run() }
        return pending
    }

    static func schedulePeriodic(
        on queue: DispatchQueue, startAfter: Duration, period: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + .nanoseconds(startAfter.clampedNanoseconds),
            repeating: .nanoseconds(max(period.clampedNanoseconds, 1))
        )
        let cancelled = BooleanDisposable()
        timer.setEventHandler {
            if !cancelled.isDisposed { action() }
        }
        timer.resume()
        let source = UncheckedTimerSource(timer)
        return Disposables.create {
            cancelled.dispose()
            source.timer.cancel()
        }
    }
}

/// Lets the cancel closure hold the timer source.
// @unchecked: DispatchSource is thread-safe; `cancel()` may be called from any thread.
final class UncheckedTimerSource: @unchecked Sendable {
    let timer: any DispatchSourceTimer
    init(_ timer: any DispatchSourceTimer) { self.timer = timer }
}

