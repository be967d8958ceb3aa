import Foundation

/// Runs work in order on a serial dispatch queue.
///
/// ```swift
/// let background = SerialDispatchQueueScheduler(qos: .utility)
/// source.observe(on: background)
/// ```
public struct SerialDispatchQueueScheduler: SchedulerType {
    /// The queue the work runs on.
    public let queue: DispatchQueue

    /// A scheduler on `queue`, which must be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// A scheduler on a new serial queue with the given quality of service.
    public init(qos: DispatchQoS, label: String = "reactive.serial") {
        self.queue = DispatchQueue(label: label, qos: qos)
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
