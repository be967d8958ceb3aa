extension ObservableType where Element: Sendable {
    /// Emits an element only after `dueTime` passes without another one; completion emits the
    /// element still waiting first.
    ///
    /// ```swift
    /// searchText.debounce(.milliseconds(300), scheduler: MainScheduler.instance)
    /// ```
    public func debounce(_ dueTime: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        return lift { DebounceSink(downstream: $0, dueTime: dueTime, scheduler: scheduler) }
    }
}

/// State changes under `state`'s lock; events go downstream through the `Outbox`, outside it.
// @unchecked: every mutable field is in `state`, a `LockedState` never held while calling out.
final class DebounceSink<Element: Sendable>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private struct State {
        var outbox = Outbox<Element>()
        var waiting: Element?
        var generation = 0
        var stopped = false
    }

    private let dueTime: Duration
    private let scheduler: any SchedulerType
    private let timer = SerialDisposable()
    private let state = LockedState(State())

    init(downstream: AnyObserver<Element>, dueTime: Duration, scheduler: any SchedulerType) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let current: Int? = state.withLock { state in
                guard !state.stopped else { return nil }
                state.generation += 1
                state.waiting = element
                return state.generation
            }
            guard let current else { return }
            timer.disposable = scheduler.scheduleRelative(dueTime) { [weak self] in
                self?.fire(generation: current)
            }
        case .error:
            deliver(state.withLock { state in
                guard !state.stopped else { return nil }
                state.stopped = true
                state.waiting = nil
                return state.outbox.push(event)
            })
        case .completed:
            deliver(state.withLock { state in
                guard !state.stopped else { return nil }
                state.stopped = true
                var first: Event<Element>?
                if let waiting = state.waiting {
                    state.waiting = nil
                    first = state.outbox.push(.next(waiting))
                }
                return state.outbox.push(.completed) ?? first
            })
        }
    }

    private func fire(generation: Int) {
        deliver(state.withLock { state in
            guard !state.stopped, generation == state.generation, let waiting = state.waiting else { return nil }
            state.waiting = nil
            return state.outbox.push(.next(waiting))
        })
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
    }
}
