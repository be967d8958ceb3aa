import Foundation

/// Runs work on the main queue; work scheduled from the main thread while it runs there
/// still goes through the queue, in order.
///
/// ```swift
/// source.observe(on: MainScheduler.instance)
/// ```
public struct MainScheduler: SchedulerType {
    /// The shared instance.
    public static let instance = MainScheduler()

    private let serial = SerialDispatchQueueScheduler(queue: .main)

    /// The main-queue scheduler.
    public init() {}

    /// The wall-clock time.
    public var now: Date { Date() }

    /// Runs `action` asynchronously on the main queue.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        serial.schedule(action)
    }

    /// Runs `action` on the main queue after `dueTime`.
    @discardableResult
    public func scheduleRelative(_ dueTime: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        serial.scheduleRelative(dueTime, action: action)
    }

    /// Runs `action` on the main queue periodically.
    @discardableResult
    public func schedulePeriodic(
        startAfter: Duration, period: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        serial.schedulePeriodic(startAfter: startAfter, period: period, action: action)
    }
}
