import Synchronization

/// Disposes `disposable` on `scheduler` when disposed (RxSwift's `ScheduledDisposable`): for a
/// resource that must be released on a given queue.
///
/// ```swift
/// let subscription = ScheduledDisposable(scheduler: MainScheduler.instance, disposable: binding)
/// ```
public final class ScheduledDisposable: Cancelable {
    /// The scheduler the disposal runs on.
    public let scheduler: any SchedulerType
    private let disposable: any Disposable
    private let disposed = Atomic<Bool>(false)

    /// Holds `disposable` until disposed, then disposes it on `scheduler`.
    public init(scheduler: any SchedulerType, disposable: any Disposable) {
        self.scheduler = scheduler
        self.disposable = disposable
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Schedules the disposal of the held disposable, once.
    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let disposable = disposable
        scheduler.schedule { disposable.dispose() }
    }
}
