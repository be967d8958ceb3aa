/// The handle of one exchange started by `HTTPClient.execute(_:completion:)`.
public protocol HTTPClientTask: Sendable {
    /// Whether `cancel()` was called before the exchange reported.
    var isCancelled: Bool { get }
    /// Ends the exchange from any thread: its connection is closed (never pooled) and its
    /// completion is not called, unless it had been called already.
    func cancel()
}

/// An `HTTPClientTask` that is an object, as every task `HTTPClient.start` returns: its
/// existential is two words, which a wrapper (`SocketTransport`'s `Cancellable`) holds inline,
/// where a task of any type would take a box a request.
package protocol HTTPClientTaskObject: AnyObject, HTTPClientTask {}

/// The handle of an exchange that reported before it started (no event loop could be had).
final class FinishedClientTask: HTTPClientTaskObject {
    var isCancelled: Bool { false }
    func cancel() {}
}
