extension ObservableType {
    /// At each element (or the completion) of `sampler`, emits the newest element of this
    /// sequence since the previous sample, or `defaultValue` when there was none (nothing when
    /// `nil`). After this sequence completes, the next sample emits what is left and completes.
    /// This sequence is subscribed first.
    ///
    /// ```swift
    /// position.sample(Observable<Int>.interval(.seconds(1), scheduler: scheduler))
    /// ```
    public func sample<Sampler: ObservableConvertibleType>(
        _ sampler: Sampler, defaultValue: Element? = nil
    ) -> Observable<Element> {
        let source = asObservable()
        let sampler = sampler.asObservable()
        return Observable { observer in
            let sink = SampleSink<Element, Sampler.Element>(downstream: observer, defaultValue: defaultValue)
            sink.run(source, sampler)
            return sink
        }
    }
}

/// State changes under `state`'s lock; events go downstream through the `Outbox`, outside it.
// @unchecked: every mutable field is in `state`, a `LockedState` never held while calling out;
// `defaultValue` is immutable.
final class SampleSink<Element, Tick>: Sink<Element>, @unchecked Sendable {
    private struct State {
        var outbox = Outbox<Element>()
        var newest: Element?
        var sourceEnded = false
        var stopped = false
    }

    private let defaultValue: Element?
    private let state = LockedState(State())
    private let samplerSubscription = SingleAssignmentDisposable()

    init(downstream: AnyObserver<Element>, defaultValue: Element?) {
        self.defaultValue = defaultValue
        super.init(downstream: downstream)
    }

    func run(_ source: Observable<Element>, _ sampler: Observable<Tick>) {
        upstream.set(source.subscribe(handler: { self.onSource($0) }))
        samplerSubscription.setDisposable(sampler.subscribe(handler: { self.onSampler($0) }))
    }

    private func onSource(_ event: Event<Element>) {
        switch event {
        case .next(let element): state.withLock { $0.newest = element }
        case .error(let error): send([.error(error)])
        case .completed:
            state.withLock { $0.sourceEnded = true }
            upstream.dispose()
        }
    }

    private func onSampler(_ event: Event<Tick>) {
        if case .error(let error) = event {
            send([.error(error)])
            return
        }
        let first = state.withLock { state -> Event<Element>? in
            guard !state.stopped else { return nil }
            var events: [Event<Element>] = []
            if let element = state.newest ?? defaultValue { events.append(.next(element)) }
            state.newest = nil
            if state.sourceEnded {
                state.stopped = true
                events.append(.completed)
            }
            return Self.push(events, into: &state.outbox)
        }
        deliver(first)
    }

    private func send(_ events: [Event<Element>]) {
        let first = state.withLock { state -> Event<Element>? in
            guard !state.stopped else { return nil }
            if events.contains(where: \.isStopEvent) { state.stopped = true }
            return Self.push(events, into: &state.outbox)
        }
        deliver(first)
    }

    /// Pushes `events` in order; returns the one the caller must deliver first, if any.
    private static func push(_ events: [Event<Element>], into outbox: inout Outbox<Element>) -> Event<Element>? {
        var first: Event<Element>?
        for event in events {
            if let now = outbox.push(event) { first = now }
        }
        return first
    }

    private func deliver(_ first: Event<Element>?) {
        deliver(first) { state.withLock { $0.outbox.pop() } }
    }

    override func dispose() {
        state.withLock { state in
            state.stopped = true
            state.outbox.close()
        }
        super.dispose()
        samplerSubscription.dispose()
    }
}
