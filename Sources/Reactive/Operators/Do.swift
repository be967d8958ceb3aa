import Synchronization

extension ObservableType {
    /// Runs side effects around the events without changing them; a throwing callback ends the
    /// sequence with its error.
    ///
    /// Order: `onSubscribe`, (upstream subscribed), `onSubscribed`; per element `onNext`, the
    /// element downstream, `afterNext`; `onError`/`onCompleted` before the terminal event;
    /// `onDispose` once, after a terminal event or on disposal, and never before `onSubscribed`:
    /// for a source that ends during `subscribe`, the order ends `…, upstream disposed,
    /// onSubscribed, onDispose`, as in RxSwift.
    /// ```swift
    /// request.do(onNext: { print("got", $0) }, onError: { print("failed", $0) })
    /// ```
    @inlinable
    public func `do`(
        onNext: (@Sendable (Element) throws -> Void)? = nil,
        afterNext: (@Sendable (Element) throws -> Void)? = nil,
        onError: (@Sendable (any Error) throws -> Void)? = nil,
        afterError: (@Sendable (any Error) throws -> Void)? = nil,
        onCompleted: (@Sendable () throws -> Void)? = nil,
        afterCompleted: (@Sendable () throws -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Observable<Element> {
        let source = asObservable()
        let callbacks = DoCallbacks(
            onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted, onDispose: onDispose
        )
        return Observable { observer in
            onSubscribe?()
            let sink = DoSink(downstream: observer, callbacks: callbacks)
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            onSubscribed?()
            sink.finishSubscribing()
            return sink
        }
    }
}

@usableFromInline
struct DoCallbacks<Element>: Sendable {
    @usableFromInline let onNext: (@Sendable (Element) throws -> Void)?
    @usableFromInline let afterNext: (@Sendable (Element) throws -> Void)?
    @usableFromInline let onError: (@Sendable (any Error) throws -> Void)?
    @usableFromInline let afterError: (@Sendable (any Error) throws -> Void)?
    @usableFromInline let onCompleted: (@Sendable () throws -> Void)?
    @usableFromInline let afterCompleted: (@Sendable () throws -> Void)?
    @usableFromInline let onDispose: (@Sendable () -> Void)?

    @inlinable
    init(
        onNext: (@Sendable (Element) throws -> Void)?,
        afterNext: (@Sendable (Element) throws -> Void)?,
        onError: (@Sendable (any Error) throws -> Void)?,
        afterError: (@Sendable (any Error) throws -> Void)?,
        onCompleted: (@Sendable () throws -> Void)?,
        afterCompleted: (@Sendable () throws -> Void)?,
        onDispose: (@Sendable () -> Void)?
    ) {
        self.onNext = onNext
        self.afterNext = afterNext
        self.onError = onError
        self.afterError = afterError
        self.onCompleted = onCompleted
        self.afterCompleted = afterCompleted
        self.onDispose = onDispose
    }
}

// @unchecked: `isStopped` is on the serialized event path; `phase` is atomic.
@usableFromInline
final class DoSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline let callbacks: DoCallbacks<Element>
    /// Bit `subscribedBit`: `subscribe` has returned and `onSubscribed` ran; bit `disposedBit`:
    /// disposed. `onDispose` runs once both are set, by whichever set the second.
    @usableFromInline let phase = Atomic<UInt8>(0)
    @usableFromInline static var subscribedBit: UInt8 { 1 }
    @usableFromInline static var disposedBit: UInt8 { 2 }

    @inlinable
    init(downstream: AnyObserver<Element>, callbacks: DoCallbacks<Element>) {
        self.callbacks = callbacks
        super.init(downstream: downstream)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        do {
            switch event {
            case .next(let element):
                try callbacks.onNext?(element)
                downstream.on(.next(element))
                try callbacks.afterNext?(element)
            case .error(let error):
                try callbacks.onError?(error)
                isStopped = true
                downstream.on(.error(error))
                try? callbacks.afterError?(error)
                dispose()
            case .completed:
                try callbacks.onCompleted?()
                isStopped = true
                downstream.on(.completed)
                try? callbacks.afterCompleted?()
                dispose()
            }
        } catch {
            stop(with: .error(error))
        }
    }

    /// Marks the subscription as made; runs `onDispose` now when it was disposed meanwhile.
    @inlinable
    func finishSubscribing() {
        let old = phase.bitwiseOr(Self.subscribedBit, ordering: .acquiringAndReleasing).oldValue
        if old & Self.disposedBit != 0 { callbacks.onDispose?() }
    }

    @usableFromInline
    override func dispose() {
        super.dispose()
        let old = phase.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        if old & Self.disposedBit == 0 && old & Self.subscribedBit != 0 {
            callbacks.onDispose?()
        }
    }
}
