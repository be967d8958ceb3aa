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
    private static let counter = Atomic<Int>(0)

    /// Live subscriptions and sinks right now.
    public static var total: Int { counter.load(ordering: .relaxed) }

    @usableFromInline
    static func increment() {
        #if DEBUG
        counter.add(1, ordering: .relaxed)
        #endif
    }

    @usableFromInline
    static func decrement() {
        #if DEBUG
        counter.subtract(1, ordering: .relaxed)
        #endif
    }
}
