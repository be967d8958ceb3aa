/// A handle to work in progress that can be cancelled.
public protocol Cancellable: Sendable {
    /// Whether `cancel()` has been called.
    var isCancelled: Bool { get }
    /// Stops the work; after this, its completion is never called.
    func cancel()
}
