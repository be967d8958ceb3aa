/// A handle to work in progress that can be cancelled.
///
/// After `cancel()`, a provider request (`NetworkProvider.request(_:callbackQueue:progress:completion:)`)
/// calls its completion once with `ProviderError.underlying(URLError(.cancelled), nil)`, as
/// Moya's does, unless it had answered already. A transport's `send` reports nothing after
/// `cancel()`: the provider reports the cancellation for it.
public protocol Cancellable: Sendable {
    /// Whether `cancel()` has been called.
    var isCancelled: Bool { get }
    /// Stops the work; see the type's documentation for what the completion sees.
    func cancel()
}
