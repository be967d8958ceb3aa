import Foundation
import Synchronization

/// The scheduling the dispatch-queue schedulers share: now, after a delay, periodically.
enum DispatchQueueTimer {
    static func schedule(on queue: DispatchQueue, action: @escaping @Sendable () -> Void) -> any Disposable {
        let pending = ScheduledAction(action)
        queue.async { pending.run() }
        return pending
    }

    /// A one-shot dispatch timer rather than `asyncAfter`: dispatch keeps an `asyncAfter` block,
    /// and all it captured, until its deadline even when the work was disposed at once (a
    /// 100 s timeout disposed after 10 ms held its memory for 100 s), while cancelling a timer
    /// source lets go of its handler now.
    static func schedule(
        on queue: DispatchQueue, after dueTime: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        OneShotTimer(on: queue, after: dueTime, action: action)
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

/// Work due once on a queue: a timer source whose handler runs the action, then cancels the
/// source. Disposing releases the action and cancels the source, which lets go of the handler
/// (and of this object, which the handler holds until then).
// @unchecked: the action is locked in `ScheduledAction`; a dispatch source is thread-safe.
final class OneShotTimer: Disposable, @unchecked Sendable {
    private let pending: ScheduledAction
    private let timer: any DispatchSourceTimer

    init(on queue: DispatchQueue, after dueTime: Duration, action: @escaping @Sendable () -> Void) {
        pending = ScheduledAction(action)
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .nanoseconds(dueTime.clampedNanoseconds))
        timer.setEventHandler { [self] in
            pending.run()
            timer.cancel()
        }
        timer.resume()
    }

    func dispose() {
        pending.dispose()
        timer.cancel()
    }
}

/// Lets the cancel closure hold the timer source.
// @unchecked: DispatchSource is thread-safe; `cancel()` may be called from any thread.
final class UncheckedTimerSource: @unchecked Sendable {
    let timer: any DispatchSourceTimer
    init(_ timer: any DispatchSourceTimer) { self.timer = timer }
}

