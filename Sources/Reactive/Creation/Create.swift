import Synchronization

extension Observable {
    /// An observable whose subscriptions run `subscribe` with an observer.
    ///
    /// Events after the first terminal event, or after disposal, are dropped.
    /// ```swift
    /// Observable<Int>.create { observer in
    ///     observer.onNext(1)
    ///     observer.onCompleted()
    ///     return Disposables.create()
    /// }
    /// ```
    @inlinable
    public static func create(
        _ subscribe: @escaping @Sendable (AnyObserver<Element>) -> any Disposable
    ) -> Observable<Element> {
        Observable { observer in
            let sink = CreateSink(downstream: observer)
            sink.upstream.set(subscribe(AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

/// Guards the grammar for `create`: nothing after a terminal event or disposal.
// @unchecked: `stopped` is atomic; the rest is immutable.
@usableFromInline
final class CreateSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline let stopped = Atomic<Bool>(false)

    @inlinable
    func on(_ event: Event<Element>) {
        #if DEBUG
        checkingOverlap { deliver(event) }
        #else
        deliver(event)
        #endif
    }

    /// Forwards `event` unless a terminal event or disposal came first.
    @inlinable
    func deliver(_ event: Event<Element>) {
        switch event {
        case .next:
            guard !stopped.load(ordering: .relaxed) else { return }
            downstream.on(event)
        case .error, .completed:
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            forwardTerminal(event)
        }
    }

    @usableFromInline
    override func dispose() {
        stopped.store(true, ordering: .releasing)
        super.dispose()
    }
}
