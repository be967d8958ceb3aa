import Foundation

/// Runs work on the main queue, in order; work scheduled from the main thread still goes
/// through the queue.
///
/// ```swift
/// source.observe(on: MainScheduler.instance)
/// ```
public struct MainScheduler: DispatchQueueSchedulerType {
    /// The one instance, for `observe(on: MainScheduler.instance)`; it runs work on the main queue.
    public static let instance = MainScheduler()

    /// The main queue.
    public var queue: DispatchQueue { .main }

    /// A scheduler on the main queue; use `instance`, every value behaves the same.
    public init() {}
}
