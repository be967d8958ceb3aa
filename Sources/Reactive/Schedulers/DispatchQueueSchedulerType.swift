import Foundation

/// A scheduler that runs its work on a dispatch queue; a conforming type only names the queue.
///
/// ```swift
/// struct UtilityScheduler: DispatchQueueSchedulerType { let queue = DispatchQueue.global(qos: .utility) }
/// ```
public protocol DispatchQueueSchedulerType: SchedulerType {
    /// The queue the work runs on.
    var queue: DispatchQueue { get }
}

extension DispatchQueueSchedulerType {
    /// The wall-clock time.
    public var now: Date { Date() }

    /// Runs `action` asynchronously on the queue.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        DispatchQueueTimer.schedule(on: queue, action: action)
    }

    /// Runs `action` on the queue after `dueTime`.
    @discardableResult
    public func scheduleRelative(_ dueTime: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        DispatchQueueTimer.schedule(on: queue, after: dueTime, action: action)
    }

    /// Runs `action` on the queue from a dispatch timer.
    @discardableResult
    public func schedulePeriodic(
        startAfter: Duration, period: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        DispatchQueueTimer.schedulePeriodic(on: queue, startAfter: startAfter, period: period, action: action)
    }
}
