import Synchronization

extension ObservableType {
    /// Subscribes with closures; returns the subscription to dispose.
    ///
    /// `onDisposed` runs once, after a terminal event or on disposal.
    /// ```swift
    /// observable.subscribe(onNext: { print($0) }, onError: { print($0) })
    /// ```
    @discardableResult
    public func subscribe(
        onNext: (@Sendable (Element) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        let sink = ClosureObserver(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
        sink.upstream.set(asObservable().subscribe(handler: { sink.on($0) }))
        return sink
    }

    /// Subscribes with a closure taking every event.
    @discardableResult
    public func subscribe(_ on: @escaping @Sendable (Event<Element>) -> Void) -> any Disposable {
        asObservable().subscribe(AnyObserver(on))
    }
}

/// The observer behind `subscribe(onNext:...)`, also its returned subscription.
// @unchecked: `state` is atomic; the callbacks are immutable and `@Sendable`.
final class ClosureObserver<Element>: Disposable, @unchecked Sendable {
    private let onNext: (@Sendable (Element) -> Void)?
    private let onError: (@Sendable (any Error) -> Void)?
    private let onCompleted: (@Sendable () -> Void)?
    private let onDisposed: (@Sendable () -> Void)?
    let upstream = DisposableSlot()
    /// 0 live, 1 stopped or disposed.
    private let stopped = Atomic<Bool>(false)

    init(
        onNext: (@Sendable (Element) -> Void)?,
        onError: (@Sendable (any Error) -> Void)?,
        onCompleted: (@Sendable () -> Void)?,
        onDisposed: (@Sendable () -> Void)?
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.onDisposed = onDisposed
        Resources.increment()
    }

    deinit { Resources.decrement() }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            guard !stopped.load(ordering: .relaxed) else { return }
            onNext?(value)
        case .error(let error):
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            onError?(error)
            upstream.dispose()
            onDisposed?()
        case .completed:
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            onCompleted?()
            upstream.dispose()
            onDisposed?()
        }
    }

    func dispose() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        upstream.dispose()
        onDisposed?()
    }
}
