import Foundation

/// Runs work now, after a relative due time, or periodically.
///
/// ```swift
/// let timer = scheduler.scheduleRelative(.seconds(1)) { print("a second later") }
/// timer.dispose()   // cancels it
/// ```
public protocol SchedulerType: Sendable {
    /// The scheduler's current time (virtual for `VirtualTimeScheduler`).
    var now: Date { get }

    /// Runs `action` as soon as possible.
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` after `dueTime`.
    @discardableResult
    func scheduleRelative(_ dueTime: Duration, action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` after `startAfter`, then every `period`, until disposed.
    @discardableResult
    func schedulePeriodic(
        startAfter: Duration, period: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable
}

extension SchedulerType {
    /// Periodic work as a chain of relative schedules, each one after the previous ran.
    @discardableResult
    public func schedulePeriodic(
        startAfter: Duration, period: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let timer = SerialDisposable()
        scheduleTick(after: startAfter, period: period, into: timer, action: action)
        return timer
    }

    private func scheduleTick(
        after dueTime: Duration, period: Duration, into timer: SerialDisposable,
        action: @escaping @Sendable () -> Void
    ) {
        guard !timer.isDisposed else { return }
        timer.disposable = scheduleRelative(dueTime) {
            guard !timer.isDisposed else { return }
            action()
            self.scheduleTick(after: period, period: period, into: timer, action: action)
        }
    }
}
