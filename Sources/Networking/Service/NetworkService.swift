import Foundation
import Locking
import Reactive
import Synchronization

/// A typed API over one provider: requests decode straight to models through the service's
/// response envelope, as a `Single`, with a completion handler, or with `async`.
///
/// The pipeline: `provider.rx.classifiedRequest(_:retryPolicy:)` (the request with the service's
/// retry policy -> `filterSuccessfulStatusCodes()` -> `classifyErrors()`) -> the envelope's verdict (`EnvelopeError.server` on failure) -> the
/// payload decoded with `makeDecoder()`.
///
/// ```swift
/// struct UserService: NetworkService {
///     let provider = NetworkProvider<UserAPI>()
///     var envelope: ResponseEnvelope { .resultEnvelope }
/// }
/// UserService().request(.profile(id: 1), as: User.self).subscribe(onSuccess: show)
/// let user = try await UserService().request(.profile(id: 1), as: User.self)
/// ```
public protocol NetworkService {
    /// The target type of the service's requests.
    associatedtype Endpoint: TargetType

    /// The provider that sends the requests.
    var provider: NetworkProvider<Endpoint> { get }
    /// Where the payload and verdict are in a response (default `.none`: the whole body).
    var envelope: ResponseEnvelope { get }
    /// How failed requests are repeated (default `.none`).
    var retryPolicy: RetryPolicy { get }
    /// The decoder of payloads (default `JSONDecoder()`).
    func makeDecoder() -> JSONDecoder
}

extension NetworkService {
    /// No envelope.
    public var envelope: ResponseEnvelope { .none }

    /// By default a failed request is not retried (`RetryPolicy.none`); override to retry.
    public var retryPolicy: RetryPolicy { .none }

    /// A plain `JSONDecoder`.
    public func makeDecoder() -> JSONDecoder { JSONDecoder() }

    /// The request for `endpoint` decoded as `T`; errors are classified (`APIError`), envelope
    /// failures are `EnvelopeError`, decoding failures `ProviderError.objectMapping`.
    public func request<T: Decodable & SendableMetatype>(
        _ endpoint: Endpoint, as type: T.Type = T.self, callbackQueue: DispatchQueue? = nil
    ) -> Single<T> {
        let envelope = self.envelope
        let decoder = UncheckedDecoder(makeDecoder())
        return provider.rx.classifiedRequest(endpoint, retryPolicy: retryPolicy, callbackQueue: callbackQueue)
            .map { try envelope.decode(type, from: $0, using: decoder.decoder) }
    }

    /// The request for `endpoint` decoded as `T`, reported once to `completion` (on
    /// `callbackQueue`, else the provider's): the answer, or after `cancel()`
    /// `ProviderError.underlying(URLError(.cancelled), nil)`, as `NetworkProvider.request` does.
    @discardableResult
    public func request<T: Decodable & SendableMetatype>(
        _ endpoint: Endpoint, as type: T.Type = T.self, callbackQueue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> any Cancellable {
        let call = ServiceCall<T>(callbackQueue: callbackQueue)
        call.start(request(endpoint, as: type, callbackQueue: callbackQueue)) { result in
            completion(result)
        }
        return call
    }

    /// The request for `endpoint` decoded as `T`; cancelling the task cancels the request.
    public func request<T: Decodable & Sendable>(_ endpoint: Endpoint, as type: T.Type = T.self) async throws -> T {
        try await request(endpoint, as: type, callbackQueue: nil).value
    }
}

/// A subscription seen as a `Cancellable`, reporting exactly once as the provider's completion
/// form does: the answer, or after `cancel()` `ProviderError.underlying(URLError(.cancelled), nil)`
/// (on `callbackQueue` when there is one).
final class ServiceCall<T>: Cancellable {
    private struct State {
        var subscription: (any Disposable)?
        var completion: (@Sendable (Result<T, any Error>) -> Void)?
        var cancelled = false
        var finished = false
    }

    private let state = Lock(State())
    private let callbackQueue: DispatchQueue?

    init(callbackQueue: DispatchQueue?) {
        self.callbackQueue = callbackQueue
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func start(_ single: Single<T>, completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        state.withLock { $0.completion = completion }
        let subscription = single.subscribe { result in
            let (deliver, finished) = self.state.withLock { state -> (Bool, (any Disposable)?) in
                guard !state.cancelled, !state.finished else { return (false, nil) }
                state.finished = true
                state.completion = nil
                defer { state.subscription = nil }
                return (true, state.subscription)
            }
            finished?.dispose()
            if deliver { completion(result) }
        }
        let disposeNow = state.withLock { state -> Bool in
            if state.cancelled || state.finished { return true }
            state.subscription = subscription
            return false
        }
        if disposeNow { subscription.dispose() }
    }

    func cancel() {
        let claimed = state.withLock { state -> (subscription: (any Disposable)?, completion: (@Sendable (Result<T, any Error>) -> Void)?)? in
            guard !state.cancelled, !state.finished else { return nil }
            state.cancelled = true
            defer {
                state.subscription = nil
                state.completion = nil
            }
            return (state.subscription, state.completion)
        }
        guard let claimed else { return }
        claimed.subscription?.dispose()
        guard let completion = claimed.completion else { return }
        let report: @Sendable () -> Void = { completion(.failure(ProviderError.underlying(URLError(.cancelled), nil))) }
        if let callbackQueue {
            callbackQueue.async(execute: report)
        } else {
            report()
        }
    }
}
