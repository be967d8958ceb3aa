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

    /// Reports, through `DebugLog.output`, a call made off the main thread: `errorMessage`, or
    /// "Running on background thread." (RxSwift's check, which stops the program instead).
    ///
    /// ```swift
    /// func render() { MainScheduler.ensureRunningOnMainThread(); ... }
    /// ```
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        guard !Thread.isMainThread else { return }
        DebugLog.write(errorMessage ?? "Running on background thread.")
    }
}
