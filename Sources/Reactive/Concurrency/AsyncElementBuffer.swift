import Locking
import Synchronization

/// The events of one subscription, buffered for an async consumer that pulls them one at a
/// time with `next()`: the engine of `ObservableType.values`.
///
/// The subscription is disposed when the sequence ends, when the consumer's task is cancelled,
/// and when the buffer is released (the consumer dropped the sequence).
final class AsyncElementBuffer<Element: Sendable>: Sendable {
    private struct State {
        var elements: [Element] = []
        var head = 0
        /// `.success(())` after completion, `.failure` after an error or cancellation.
        var end: Result<Void, any Error>?
        var endDelivered = false
        var waiting: CheckedContinuation<Element?, any Error>?
        var subscription: (any Disposable)?
    }

    private let state = Lock(State())

    /// Subscribes to `source`; the subscription holds the buffer weakly.
    init<Source: ObservableType>(_ source: Source) where Source.Element == Element {
        let subscription = source.subscribe(
            onNext: { [weak self] in self?.receive(.next($0)) },
            onError: { [weak self] in self?.receive(.error($0)) },
            onCompleted: { [weak self] in self?.receive(.completed) }
        )
        let disposeNow = state.withLock { state -> Bool in
            if state.end != nil { return true }
            state.subscription = subscription
            return false
        }
        if disposeNow { subscription.dispose() }
    }

    deinit {
        state.withLock { $0.subscription }?.dispose()
    }

    /// The next element, `nil` after completion; throws the error, or `CancellationError` when
    /// the calling task is cancelled (the subscription is disposed then).
    func next() async throws -> Element? {
        if Task.isCancelled { cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<Element?, any Error>? = state.withLock { state in
                    if let ready = Self.take(&state) { return ready }
                    state.waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Ends the sequence with `CancellationError`, dropping what is buffered.
    private func cancel() {
        finish(.failure(CancellationError()), dropBuffered: true)
    }

    private func receive(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let waiting = state.withLock { state -> CheckedContinuation<Element?, any Error>? in
                guard state.end == nil else { return nil }
                if let waiting = state.waiting {
                    state.waiting = nil
                    return waiting
                }
                state.elements.append(element)
                return nil
            }
            waiting?.resume(returning: element)
        case .error(let error): finish(.failure(error), dropBuffered: false)
        case .completed: finish(.success(()), dropBuffered: false)
        }
    }

    /// Ends the sequence once (later ends are ignored) and disposes the subscription; wakes a
    /// waiting consumer. The buffered elements go first unless `dropBuffered`.
    private func finish(_ end: Result<Void, any Error>, dropBuffered: Bool) {
        let (waiting, ready, subscription) = state.withLock { state in
            guard state.end == nil else {
                return (nil as CheckedContinuation<Element?, any Error>?, nil as Result<Element?, any Error>?, nil as (any Disposable)?)
            }
            state.end = end
            if dropBuffered {
                state.elements.removeAll()
                state.head = 0
            }
            let subscription = state.subscription
            state.subscription = nil
            guard let waiting = state.waiting else { return (nil, nil, subscription) }
            state.waiting = nil
            return (waiting, Self.take(&state), subscription)
        }
        if let waiting, let ready { waiting.resume(with: ready) }
        subscription?.dispose()
    }

    /// What the consumer gets now: a buffered element, or the end once; `nil` when it must wait.
    private static func take(_ state: inout State) -> Result<Element?, any Error>? {
        if state.head < state.elements.count {
            let element = state.elements[state.head]
            state.head += 1
            if state.head == state.elements.count {
                state.elements.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return .success(element)
        }
        guard let end = state.end else { return nil }
        if state.endDelivered { return .success(nil) }
        state.endDelivered = true
        switch end {
        case .success: return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }
}
