import Foundation
import Locking
import Synchronization

/// RxSwift's global hooks: what happens to an error nobody handles, and the call stack
/// recorded at subscription to go with it.
///
/// ```swift
/// Hooks.recordCallStackOnError = true
/// Hooks.defaultErrorHandler = { callStack, error in logger.error("\(error) from \(callStack)") }
/// ```
public enum Hooks {
    /// Called with the subscription's call stack and an error that reached a
    /// `subscribe(onNext:onError:…)` without `onError`.
    public typealias DefaultErrorHandler = @Sendable (_ subscriptionCallStack: [String], _ error: any Error) -> Void
    /// Returns the call stack to record at subscription.
    public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

    private static let recording = Atomic<Bool>(false)
    private static let errorHandler = Lock<DefaultErrorHandler>(defaultErrorHandlerDefault)
    private static let captureCallstack = Lock<CustomCaptureSubscriptionCallstack>(captureCallstackDefault)

    /// Drops the error, as subscriptions here always did (RxSwift prints it in debug builds,
    /// which would write into a terminal program's screen).
    private static let defaultErrorHandlerDefault: DefaultErrorHandler = { _, _ in }

    /// RxSwift's default: the thread's call stack in debug builds, nothing in release builds.
    private static let captureCallstackDefault: CustomCaptureSubscriptionCallstack = {
        #if DEBUG
        return Thread.callStackSymbols
        #else
        return []
        #endif
    }

    /// Whether subscriptions record a call stack (with `customCaptureSubscriptionCallstack`)
    /// for `defaultErrorHandler`; off by default, since recording costs time.
    public static var recordCallStackOnError: Bool {
        get { recording.load(ordering: .relaxed) }
        set { recording.store(newValue, ordering: .relaxed) }
    }

    /// What happens to an unhandled error (by default nothing); replaceable at any time, from
    /// any thread.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { errorHandler.withLock { $0 } }
        set { errorHandler.withLock { $0 = newValue } }
    }

    /// How a subscription records its call stack when `recordCallStackOnError` is set.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { captureCallstack.withLock { $0 } }
        set { captureCallstack.withLock { $0 = newValue } }
    }

    /// The `onError` of a subscription made without one: hands the error to
    /// `defaultErrorHandler` with the call stack recorded now, when recording is on. Without
    /// recording the closure captures nothing, so a subscription pays no allocation for it.
    @usableFromInline
    static func unhandledErrorReporter() -> @Sendable (any Error) -> Void {
        guard recordCallStackOnError else { return { reportUnhandled($0, callStack: []) } }
        let callStack = customCaptureSubscriptionCallstack()
        return { reportUnhandled($0, callStack: callStack) }
    }

    /// Hands an unhandled `error` to `defaultErrorHandler`, outside the lock.
    static func reportUnhandled(_ error: any Error, callStack: [String]) {
        let handler = defaultErrorHandler
        handler(callStack, error)
    }
}
