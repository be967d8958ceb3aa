extension ObservableType {
    /// Combines each element with the latest element of `second` through `resultSelector`;
    /// elements that arrive before `second` has emitted are dropped. Completes with this
    /// sequence; an error from either ends it. `second` is subscribed first.
    ///
    /// ```swift
    /// submitTaps.withLatestFrom(formState) { _, form in form }
    /// ```
    public func withLatestFrom<Second: ObservableConvertibleType, Result>(
        _ second: Second, resultSelector: @escaping @Sendable (Element, Second.Element) throws -> Result
    ) -> Observable<Result> {
        let first = asObservable()
        let second = second.asObservable()
        return Observable { observer in
            let sink = WithLatestFromSink(downstream: observer, resultSelector: resultSelector)
            sink.run(first, second)
            return sink
        }
    }

    /// The latest element of `second` at each element of this sequence.
    ///
    /// ```swift
    /// refreshTaps.withLatestFrom(query)   // the query current at each tap
    /// ```
    public func withLatestFrom<Second: ObservableConvertibleType>(_ second: Second) -> Observable<Second.Element> {
        withLatestFrom(second) { $1 }
    }
}

/// State changes under `state`'s lock; the selector and the observer run outside it.
// @unchecked: every mutable field is in `state`, a `LockedState` never held while calling out.
final class WithLatestFromSink<First, Second, Result>: Sink<Result>, @unchecked Sendable {
    private struct State {
        var outbox = Outbox<Result>()
        var latest: Second?
        var stopped = false
    }

    private let resultSelector: @Sendable (First, Second) throws -> Result
    private let state = LockedState(State())
    private let secondSubscription = SingleAssignmentDisposable()

    init(downstream: AnyObserver<Result>, resultSelector: @escaping @Sendable (First, Second) throws -> Result) {
        self.resultSelector = resultSelector
        super.init(downstream: downstream)
    }

    func run(_ first: Observable<First>, _ second: Observable<Second>) {
        secondSubscription.setDisposable(second.subscribe(handler: { self.onSecond($0) }))
        upstream.set(first.subscribe(handler: { self.onFirst($0) }))
    }

    private func onFirst(_ event: Event<First>) {
        switch event {
        case .next(let element):
            guard let latest = state.withLock({ $0.stopped ? nil : $0.latest }) else { return }
            do {
                let result = try resultSelector(element, latest)
                send(.next(result))
            } catch {
                send(.error(error))
            }
        case .error(let error): send(.error(error))
        case .completed: send(.completed)
        }
    }

    private func onSecond(_ event: Event<Second>) {
        switch event {
        case .next(let element): state.withLock { $0.latest = element }
        case .error(let error): send(.error(error))
        case .completed: secondSubscription.dispose()
        }
    }

    private func send(_ event: Event<Result>) {
        let first = state.withLock { state -> Event<Result>? in
            guard !state.stopped else { return nil }
            if event.isStopEvent { state.stopped = true }
            return state.outbox.push(event)
        }
        deliver(first) { state.withLock { $0.outbox.pop() } }
    }

    override func dispose() {
        state.withLock { state in
            state.stopped = true
            state.outbox.close()
        }
        super.dispose()
        secondSubscription.dispose()
    }
}
