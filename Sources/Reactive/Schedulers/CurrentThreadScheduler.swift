import Foundation

/// Runs work on the calling thread; work scheduled while other work runs waits in a queue
/// (a trampoline), so recursive scheduling does not grow the stack.
///
/// ```swift
/// CurrentThreadScheduler.instance.schedule { print("now, or after the running item") }
/// ```
public struct CurrentThreadScheduler: SchedulerType {
    /// The one instance; its queue of pending work is per thread, so every caller can share it.
    public static let instance = CurrentThreadScheduler()

    /// A handle on the per-thread trampoline; use `instance`, every value behaves the same.
    public init() {}

    /// Whether no trampoline runs on this thread (so `schedule` would run at once).
    public static var isScheduleRequired: Bool { Trampoline.current == nil }

    /// The wall-clock time.
    public var now: Date { Date() }

    /// Runs `action` now when nothing runs on this thread's trampoline, else queues it.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let item = TrampolineItem(action)
        Self.enqueueOrRun(item)
        return item
    }

    /// Blocks this thread for `dueTime`, then schedules `action` (RxSwift's behaviour).
    @discardableResult
    public func scheduleRelative(_ dueTime: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancel = BooleanDisposable()
        let item = TrampolineItem {
            if dueTime > .zero { Thread.sleep(forTimeInterval: dueTime.timeInterval) }
            if !cancel.isDisposed { action() }
        }
        Self.enqueueOrRun(item)
        return Disposables.create(item, cancel)
    }

    @inlinable
    static func enqueueOrRun(_ item: TrampolineItem) {
        if let trampoline = Trampoline.current {
            trampoline.enqueue(item)
        } else {
            Trampoline.run { item.run() }
        }
    }
}
