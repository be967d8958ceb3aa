import Reactive
import Synchronization

/// The last stage of the `StagedObservable` prototype: calls the caller's closures and, on a
/// terminal event or `dispose()`, ends the underlying subscription.
// @unchecked: `stopped` is atomic and `upstream` a thread-safe disposable; the closures are immutable.
final class StagedSubscriber<Element>: ObserverType, Disposable, @unchecked Sendable {
    private let onNext: (@Sendable (Element) -> Void)?
    private let onError: (@Sendable (any Error) -> Void)?
    private let onCompleted: (@Sendable () -> Void)?
    private let upstream = SingleAssignmentDisposable()
    private let stopped = Atomic<Bool>(false)

    init(
        onNext: (@Sendable (Element) -> Void)?,
        onError: (@Sendable (any Error) -> Void)?,
        onCompleted: (@Sendable () -> Void)?
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
    }

    /// Keeps the underlying subscription; disposes it at once if the sequence already ended.
    func attach(_ subscription: any Disposable) {
        upstream.setDisposable(subscription)
    }

    @inline(__always)
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !stopped.load(ordering: .relaxed) else { return }
            onNext?(element)
        case .error(let error):
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            onError?(error)
            upstream.dispose()
        case .completed:
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            onCompleted?()
            upstream.dispose()
        }
    }

    func dispose() {
        stopped.store(true, ordering: .releasing)
        upstream.dispose()
    }
}
