import Locking
import Synchronization

extension Single where Element: Sendable {
    /// Awaits the answer; cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError`. In a task cancelled already, it throws without subscribing.
    ///
    /// ```swift
    /// let response = try await provider.rx.request(.feed).value
    /// ```
    public var value: Element {
        get async throws {
            try await awaitResult(subscribeWhenCancelled: false) { bridge in
                self.subscribe(onSuccess: { bridge.resume(.success($0)) },
                               onFailure: { bridge.resume(.failure($0)) },
                               onDisposed: { bridge.resume(.failure(ReactiveError.disposed)) })
            }
        }
    }
}

extension Maybe where Element: Sendable {
    /// Awaits the answer: the element (as soon as it arrives), or `nil` when empty. Cancelling
    /// the awaiting task disposes the subscription and throws `CancellationError`, unless the
    /// answer is there already: in a cancelled task, a maybe that answers while subscribed
    /// still returns its answer.
    public var value: Element? {
        get async throws {
            let source = self.source
            return try await awaitResult(subscribeWhenCancelled: true) { bridge in
                source.subscribe(onNext: { bridge.resume(.success($0)) },
                                 onError: { bridge.resume(.failure($0)) },
                                 onCompleted: { bridge.resume(.success(nil)) },
                                 onDisposed: { bridge.resume(.failure(ReactiveError.disposed)) })
            }
        }
    }
}

extension Completable {
    /// Awaits completion; throws the failure. Cancellation throws `CancellationError` unless the
    /// completable has ended already (in a cancelled task, one that ends while subscribed returns).
    public var value: Void {
        get async throws {
            let source = self.source
            try await awaitResult(subscribeWhenCancelled: true) { (bridge: ContinuationBridge<Void>) in
                source.subscribe(onError: { bridge.resume(.failure($0)) },
                                 onCompleted: { bridge.resume(.success(())) },
                                 onDisposed: { bridge.resume(.failure(ReactiveError.disposed)) })
            }
        }
    }
}

/// Subscribes through `subscribe` and awaits the first result it hands the bridge; the awaiting
/// task's cancellation resumes with `CancellationError` and disposes the subscription.
func awaitResult<Element: Sendable>(
    subscribeWhenCancelled: Bool, _ subscribe: @escaping (ContinuationBridge<Element>) -> any Disposable
) async throws -> Element {
    let bridge = ContinuationBridge<Element>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            bridge.start(continuation, subscribeWhenCancelled: subscribeWhenCancelled) { subscribe(bridge) }
        }
    } onCancel: {
        bridge.cancel()
    }
}

/// Resumes a continuation exactly once: with the answer, with the failure, or with
/// `CancellationError` when the awaiting task is cancelled first.
final class ContinuationBridge<Element: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Element, any Error>?
        var subscription: (any Disposable)?
        var isCancelled = false
    }

    private let state = Lock(State())

    /// Stores `continuation` and subscribes. In a task cancelled already it resumes with
    /// `CancellationError`: at once, or, with `subscribeWhenCancelled`, after subscribing when
    /// no result arrived during the subscription.
    func start(
        _ continuation: CheckedContinuation<Element, any Error>, subscribeWhenCancelled: Bool,
        subscribe: () -> any Disposable
    ) {
        let cancelledAlready = state.withLock { state -> Bool in
            state.continuation = continuation
            return state.isCancelled
        }
        if cancelledAlready && !subscribeWhenCancelled {
            resume(.failure(CancellationError()))
            return
        }
        let subscription = subscribe()
        let (disposeNow, cancelNow) = state.withLock { state -> (Bool, Bool) in
            if state.continuation == nil { return (true, false) }
            state.subscription = subscription
            return (false, state.isCancelled)
        }
        if disposeNow { subscription.dispose() }
        if cancelNow { resume(.failure(CancellationError())) }
    }

    func resume(_ result: Result<Element, any Error>) {
        let taken = state.withLock { state -> (CheckedContinuation<Element, any Error>?, (any Disposable)?) in
            let taken = (state.continuation, state.subscription)
            state.continuation = nil
            state.subscription = nil
            return taken
        }
        taken.0?.resume(with: result)
        taken.1?.dispose()
    }

    func cancel() {
        let hasContinuation = state.withLock { state -> Bool in
            state.isCancelled = true
            return state.continuation != nil
        }
        if hasContinuation { resume(.failure(CancellationError())) }
    }
}
