import Synchronization

extension ObservableType {
    /// Subscribes with closures; returns the subscription to dispose.
    ///
    /// `onDisposed` runs once, after a terminal event or on disposal. Without `onError`, an
    /// error goes to `Hooks.defaultErrorHandler`.
    /// ```swift
    /// observable.subscribe(onNext: { print($0) }, onError: { print($0) })
    /// ```
    @inlinable
    @discardableResult
    public func subscribe(
        onNext: (@Sendable (Element) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        let sink = ClosureObserver(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
        let subscription = asObservable().subscribe(handler: { sink.on($0) })
        subscription._notifyWhenUpstreamEnds(sink)
        sink.upstream.set(subscription)
        return sink
    }

    /// Subscribes with a closure taking every event.
    @inlinable
    @discardableResult
    public func subscribe(_ on: @escaping @Sendable (Event<Element>) -> Void) -> any Disposable {
        asObservable().subscribe(AnyObserver(on))
    }
}

/// The observer behind `subscribe(onNext:...)`, also its returned subscription.
// @unchecked: `stopped` is atomic and `upstream` locked; the callbacks are immutable and `@Sendable`.
@usableFromInline
final class ClosureObserver<Element>: Disposable, UpstreamEndListener, @unchecked Sendable {
    @usableFromInline let onNext: (@Sendable (Element) -> Void)?
    /// The caller's `onError`, or one that hands the error to `Hooks.defaultErrorHandler`.
    @usableFromInline let onError: @Sendable (any Error) -> Void
    @usableFromInline let onCompleted: (@Sendable () -> Void)?
    @usableFromInline let onDisposed: (@Sendable () -> Void)?
    @usableFromInline let upstream = DisposableSlot()
    /// 0 live, 1 stopped or disposed.
    @usableFromInline let stopped = Atomic<Bool>(false)

    @inlinable
    init(
        onNext: (@Sendable (Element) -> Void)?,
        onError: (@Sendable (any Error) -> Void)?,
        onCompleted: (@Sendable () -> Void)?,
        onDisposed: (@Sendable () -> Void)?
    ) {
        self.onNext = onNext
        self.onError = onError ?? Hooks.unhandledErrorReporter()
        self.onCompleted = onCompleted
        self.onDisposed = onDisposed
        Resources.increment()
    }

    deinit { Resources.decrement() }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            guard !stopped.load(ordering: .relaxed) else { return }
            onNext?(value)
        case .error(let error):
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            onError(error)
            upstream.dispose()
            onDisposed?()
        case .completed:
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            onCompleted?()
            upstream.dispose()
            onDisposed?()
        }
    }

    @inlinable
    func dispose() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        upstream.dispose()
        onDisposed?()
    }

    /// Nothing will come from upstream (see `ChainLink`): lets go of it, without `onDisposed`,
    /// since nobody disposed this subscription.
    @usableFromInline
    func upstreamEnded() {
        upstream.dispose()
    }
}
