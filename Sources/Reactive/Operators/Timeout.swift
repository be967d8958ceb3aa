extension ObservableType where Element: Sendable {
    /// Fails with `ReactiveError.timeout` when no element arrives within `dueTime`; the timer
    /// starts at subscription and restarts on every element.
    ///
    /// ```swift
    /// request.timeout(.seconds(10), scheduler: MainScheduler.instance)
    /// ```
    public func timeout(_ dueTime: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        timeout(dueTime, fallback: nil, scheduler: scheduler)
    }

    /// Switches to `other` when no element arrives within `dueTime`.
    public func timeout<Other: ObservableConvertibleType>(
        _ dueTime: Duration, other: Other, scheduler: any SchedulerType
    ) -> Observable<Element> where Other.Element == Element {
        timeout(dueTime, fallback: other.asObservable(), scheduler: scheduler)
    }

    private func timeout(
        _ dueTime: Duration, fallback: Observable<Element>?, scheduler: any SchedulerType
    ) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = TimeoutSink(downstream: observer, dueTime: dueTime, fallback: fallback, scheduler: scheduler)
            sink.run(source)
            return sink
        }
    }
}

/// State changes under `state`'s lock; timers are restarted, the fallback subscribed and events
/// delivered (through the `Outbox`) outside it.
// @unchecked: every mutable field is in `state`, a `LockedState` never held while calling out.
final class TimeoutSink<Element: Sendable>: Sink<Element>, @unchecked Sendable {
    private struct State {
        var outbox = Outbox<Element>()
        var generation = 0
        var timedOut = false
        var stopped = false
    }

    private let dueTime: Duration
    private let fallback: Observable<Element>?
    private let scheduler: any SchedulerType
    private let state = LockedState(State())
    private let timer = SerialDisposable()
    private let other = SingleAssignmentDisposable()

    init(
        downstream: AnyObserver<Element>, dueTime: Duration, fallback: Observable<Element>?,
        scheduler: any SchedulerType
    ) {
        self.dueTime = dueTime
        self.fallback = fallback
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func run(_ source: Observable<Element>) {
        startTimer(generation: 0)
        upstream.set(source.subscribe(handler: { self.on($0) }))
    }

    private func startTimer(generation: Int) {
        timer.disposable = scheduler.scheduleRelative(dueTime) { [weak self] in
            self?.fire(generation: generation)
        }
    }

    /// Switches under the lock; the fallback is subscribed outside it.
    private func fire(generation: Int) {
        let (switchToFallback, first) = state.withLock { state -> (Bool, Event<Element>?) in
            guard !state.stopped, !state.timedOut, generation == state.generation else { return (false, nil) }
            state.timedOut = true
            if fallback != nil { return (true, nil) }
            state.stopped = true
            return (false, state.outbox.push(.error(ReactiveError.timeout)))
        }
        guard switchToFallback || first != nil else { return }
        upstream.dispose()
        if switchToFallback, let fallback {
            other.setDisposable(fallback.subscribe(handler: { self.forwardSwitched($0) }))
        }
        deliver(first)
    }

    private func on(_ event: Event<Element>) {
        let (first, restart) = state.withLock { state -> (Event<Element>?, Int?) in
            guard !state.stopped, !state.timedOut else { return (nil, nil) }
            switch event {
            case .next:
                state.generation += 1
                return (state.outbox.push(event), state.generation)
            case .error, .completed:
                state.stopped = true
                return (state.outbox.push(event), nil)
            }
        }
        if event.isStopEvent {
            timer.dispose()
        }
        deliver(first)
        if let restart { startTimer(generation: restart) }
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
        timer.dispose()
        other.dispose()
    }
}
