extension ObservableType {
    /// Maps each element to a sequence and follows only the newest one: a new element
    /// disposes the previous inner sequence.
    ///
    /// ```swift
    /// searchText.flatMapLatest { text in api.search(text) }
    /// ```
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = SwitchSink<Element, Source.Element>(
                downstream: observer, selector: { try selector($0).asObservable() }
            )
            sink.upstream.set(source.subscribe(handler: { sink.onOuter($0) }))
            return sink
        }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Follows only the newest inner sequence.
    public func switchLatest() -> Observable<Element.Element> {
        flatMapLatest { $0 }
    }
}

/// State changes under `state`'s lock; the previous inner sequence is disposed, the new one
/// subscribed, and events delivered (through the `Outbox`) outside it.
// @unchecked: every mutable field is in `state`, a `LockedState` never held while calling out.
final class SwitchSink<Source, Result>: Sink<Result>, @unchecked Sendable {
    private struct State {
        var outbox = Outbox<Result>()
        var latest = 0
        var hasInner = false
        var outerCompleted = false
        var stopped = false
    }

    private let selector: @Sendable (Source) throws -> Observable<Result>
    private let state = LockedState(State())
    private let inner = SerialDisposable()

    init(downstream: AnyObserver<Result>, selector: @escaping @Sendable (Source) throws -> Observable<Result>) {
        self.selector = selector
        super.init(downstream: downstream)
    }

    func onOuter(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            let next: Observable<Result>
            do {
                next = try selector(element)
            } catch {
                send(.error(error))
                return
            }
            let id: Int? = state.withLock { state in
                guard !state.stopped else { return nil }
                state.latest += 1
                state.hasInner = true
                return state.latest
            }
            guard let id else { return }
            let subscription = SingleAssignmentDisposable()
            inner.disposable = subscription
            subscription.setDisposable(next.subscribe(handler: { self.onInner($0, id: id) }))
        case .error(let error):
            send(.error(error))
        case .completed:
            let first = state.withLock { state -> Event<Result>? in
                guard !state.stopped else { return nil }
                state.outerCompleted = true
                guard !state.hasInner else { return nil }
                state.stopped = true
                return state.outbox.push(.completed)
            }
            upstream.dispose()
            deliver(first)
        }
    }

    private func onInner(_ event: Event<Result>, id: Int) {
        let first = state.withLock { state -> Event<Result>? in
            guard !state.stopped, id == state.latest else { return nil }
            switch event {
            case .next: return state.outbox.push(event)
            case .error:
                state.stopped = true
                return state.outbox.push(event)
            case .completed:
                state.hasInner = false
                guard state.outerCompleted else { return nil }
                state.stopped = true
                return state.outbox.push(.completed)
            }
        }
        deliver(first)
    }

    private func send(_ event: Event<Result>) {
        let first = state.withLock { state -> Event<Result>? in
            guard !state.stopped else { return nil }
            if event.isStopEvent { state.stopped = true }
            return state.outbox.push(event)
        }
        deliver(first)
    }

    private func deliver(_ first: Event<Result>?) {
        deliver(first) { state.withLock { $0.outbox.pop() } }
    }

    override func dispose() {
        state.withLock { state in
            state.stopped = true
            state.outbox.close()
        }
        super.dispose()
        inner.dispose()
    }
}
