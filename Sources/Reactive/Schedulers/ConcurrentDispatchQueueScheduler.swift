import Foundation

/// Runs work on a concurrent dispatch queue: actions may run in parallel.
public struct ConcurrentDispatchQueueScheduler: SchedulerType {
    /// The queue the work runs on.
    public let queue: DispatchQueue

    /// A scheduler on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// A scheduler on the global queue of the given quality of service.
    public init(qos: DispatchQoS) {
        self.queue = DispatchQueue.global(qos: qos.qosClass)
    }

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
