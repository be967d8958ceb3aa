import Foundation

/// Runs work at once on the calling thread; relative work runs on a global queue when due.
public struct ImmediateScheduler: SchedulerType {
    /// The one instance; the scheduler holds no state, so every caller can share it.
    public static let instance = ImmediateScheduler()

    /// A scheduler that runs work synchronously; use `instance`, every value behaves the same.
    public init() {}

    /// The wall-clock time.
    public var now: Date { Date() }

    /// Runs `action` before returning.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        action()
        return Disposables.create()
    }

    /// Runs `action` on a global queue after `dueTime` (at once when it is zero or less).
    @discardableResult
    public func scheduleRelative(_ dueTime: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        if dueTime <= .zero { return schedule(action) }
        return DispatchQueueTimer.schedule(on: .global(), after: dueTime, action: action)
    }
}
