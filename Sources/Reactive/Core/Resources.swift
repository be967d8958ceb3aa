import Synchronization

/// Leak accounting: the number of live subscriptions (sinks, subject subscriptions).
///
/// Counted in debug builds only; in release builds `total` stays 0.
/// ```swift
/// let before = Resources.total
/// observable.subscribe().dispose()
/// assert(Resources.total == before)
/// ```
public enum Resources {
    private static let counter = Atomic<Int32>(0)
    private static let serialQueueObservations = Atomic<Int32>(0)

    /// Live subscriptions and sinks right now (an `Int32`, as RxSwift's).
    public static var total: Int32 { counter.load(ordering: .relaxed) }

    /// Live `observe(on:)` subscriptions that deliver on a serial dispatch queue (a
    /// `SerialDispatchQueueScheduler` or `MainScheduler`): RxSwift's count of its serial-queue
    /// `observeOn` observables, for tests that wait for those deliveries to end. Debug builds only.
    public static var numberOfSerialDispatchQueueObservables: Int32 {
        serialQueueObservations.load(ordering: .relaxed)
    }

    @usableFromInline
    static func increment() {
        #if DEBUG
        counter.add(1, ordering: .relaxed)
        #endif
    }

    /// Counts an `observe(on:)` subscription on `scheduler` when it is a serial dispatch queue;
    /// true when counted (its sink then calls `endSerialQueueObservation()` once it ends).
    @usableFromInline
    static func beginSerialQueueObservation(on scheduler: any SchedulerType) -> Bool {
        #if DEBUG
        guard scheduler is SerialDispatchQueueScheduler || scheduler is MainScheduler else { return false }
        serialQueueObservations.add(1, ordering: .relaxed)
        return true
        #else
        return false
        #endif
    }

    /// Ends what `beginSerialQueueObservation(on:)` counted.
    @usableFromInline
    static func endSerialQueueObservation() {
        serialQueueObservations.subtract(1, ordering: .relaxed)
    }

    @usableFromInline
    static func decrement() {
        #if DEBUG
        counter.subtract(1, ordering: .relaxed)
        #endif
    }
}
