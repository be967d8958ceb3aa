import Synchronization

extension Single where Element: Sendable {
    /// Awaits the answer; cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError`.
    ///
    /// ```swift
    /// let response = try await provider.rx.request(.feed).value
    /// ```
    public var value: Element {
        get async throws {
            let bridge = ContinuationBridge<Element>()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    bridge.start(continuation) {
                        self.subscribe(onSuccess: { bridge.resume(.success($0)) },
                                       onFailure: { bridge.resume(.failure($0)) },
                                       onDisposed: { bridge.resume(.failure(ReactiveError.disposed)) })
                    }
                }
            } onCancel: {
                bridge.cancel()
            }
        }
    }
}

extension Maybe where Element: Sendable {
    /// Awaits the answer: the element, or `nil` when empty.
    public var value: Element? {
        get async throws {
            try await source.toArray().value.first
        }
    }
}

extension Completable {
    /// Awaits completion; throws the failure.
    public var value: Void {
        get async throws {
            _ = try await source.toArray().value
        }
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

    private let state = Mutex(State())

    func start(
        _ continuation: CheckedContinuation<Element, any Error>, subscribe: () -> any Disposable
    ) {
        let cancelledAlready = state.withLock { state -> Bool in
            state.continuation = continuation
            return state.isCancelled
        }
        if cancelledAlready {
            resume(.failure(CancellationError()))
            return
        }
        let subscription = subscribe()
        let disposeNow = state.withLock { state -> Bool in
            if state.continuation == nil { return true }
            state.subscription = subscription
            return false
        }
        if disposeNow { subscription.dispose() }
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
