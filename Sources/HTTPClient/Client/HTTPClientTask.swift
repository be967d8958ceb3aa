/// The handle of one exchange started by `HTTPClient.execute(_:completion:)`.
public protocol HTTPClientTask: Sendable {
    /// Whether `cancel()` was called before the exchange reported.
    var isCancelled: Bool { get }
    /// Ends the exchange from any thread: its connection is closed (never pooled) and its
    /// completion is not called, unless it had been called already.
    func cancel()
}

/// The handle of an exchange that reported before it started (no event loop could be had).
struct FinishedClientTask: HTTPClientTask {
    var isCancelled: Bool { false }
    func cancel() {}
}
