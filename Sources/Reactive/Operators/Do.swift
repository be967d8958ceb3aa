import Synchronization

extension ObservableType {
    /// Runs side effects around the events without changing them; a throwing callback ends the
    /// sequence with its error.
    ///
    /// Order: `onSubscribe`, (upstream subscribed), `onSubscribed`; per element `onNext`, the
    /// element downstream, `afterNext`; `onError`/`onCompleted` before the terminal event;
    /// `onDispose` once, after a terminal event or on disposal.
    /// ```swift
    /// request.do(onNext: { print("got", $0) }, onError: { print("failed", $0) })
    /// ```
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
            return sink
        }
    }
}

struct DoCallbacks<Element>: Sendable {
    let onNext: (@Sendable (Element) throws -> Void)?
    let afterNext: (@Sendable (Element) throws -> Void)?
    let onError: (@Sendable (any Error) throws -> Void)?
    let afterError: (@Sendable (any Error) throws -> Void)?
    let onCompleted: (@Sendable () throws -> Void)?
    let afterCompleted: (@Sendable () throws -> Void)?
    let onDispose: (@Sendable () -> Void)?
}

// @unchecked: `isStopped` is on the serialized event path; `disposed` is atomic.
final class DoSink<Element>: Sink<Element>, @unchecked Sendable {
    private let callbacks: DoCallbacks<Element>
    private let disposed = Atomic<Bool>(false)

    init(downstream: AnyObserver<Element>, callbacks: DoCallbacks<Element>) {
        self.callbacks = callbacks
        super.init(downstream: downstream)
    }

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

    override func dispose() {
        super.dispose()
        if !disposed.exchange(true, ordering: .acquiringAndReleasing) {
            callbacks.onDispose?()
        }
    }
}
