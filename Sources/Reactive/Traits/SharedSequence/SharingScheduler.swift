import Locking
/// The scheduler that `Driver` and `Signal` deliver on: `MainScheduler.instance`, or the one a
/// test puts in place with `mock`.
///
/// ```swift
/// SharingScheduler.mock(scheduler: testScheduler) {
///     let driver = source.asDriver(onErrorJustReturn: 0)   // delivers on testScheduler
/// }
/// ```
public enum SharingScheduler {
    private static let factory = Lock<@Sendable () -> any SchedulerType>({ MainScheduler.instance })

    /// The scheduler to deliver on now.
    public static func make() -> any SchedulerType {
        factory.withLock { $0 }()
    }

    /// Runs `action` with `scheduler` as the sharing scheduler, then puts the previous one back.
    /// Traits built inside `action` keep the scheduler they were built with.
    public static func mock(scheduler: any SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with `makeScheduler` making the sharing scheduler, then puts the previous
    /// one back.
    public static func mock(
        makeScheduler: @escaping @Sendable () -> any SchedulerType, action: () throws -> Void
    ) rethrows {
        let previous = factory.withLock { current in
            let previous = current
            current = makeScheduler
            return previous
        }
        defer { factory.withLock { $0 = previous } }
        try action()
    }
}
