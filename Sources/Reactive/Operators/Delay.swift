import Foundation

extension ObservableType where Element: Sendable {
    /// Shifts every element and the completion by `dueTime` on `scheduler`, in order; an error
    /// goes downstream at once (after an element being delivered right then) and drops what is
    /// still pending.
    ///
    /// ```swift
    /// Observable.of(1, 2).delay(.seconds(1), scheduler: scheduler)
    /// ```
    public func delay(_ dueTime: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        return lift { DelaySink(downstream: $0, dueTime: dueTime, scheduler: scheduler) }
    }
}

/// State changes under `lock`; events go downstream through the `Outbox`, outside it, so an
/// error never waits for an observer that is busy with an element on another thread.
// @unchecked: `state` is a `LockedState`, never held while calling out; the rest is immutable.
final class DelaySink<Element: Sendable>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private struct State {
        var outbox = Outbox<Element>()
        var pending: [Event<Element>] = []
        var head = 0
        var stopped = false
    }

    private let dueTime: Duration
    private let scheduler: any SchedulerType
    private let timers = CompositeDisposable()
    private let state = LockedState(State())

    init(downstream: AnyObserver<Element>, dueTime: Duration, scheduler: any SchedulerType) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        if case .error = event {
            let first = state.withLock { state -> Event<Element>? in
                guard !state.stopped else { return nil }
                state.stopped = true
                state.pending.removeAll()
                state.head = 0
                return state.outbox.push(event)
            }
            deliver(first)
            return
        }
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.pending.append(event)
            return true
        }
        guard accepted else { return }
        let timer = SingleAssignmentDisposable()
        guard let key = timers.insert(timer) else { return }
        timer.setDisposable(scheduler.scheduleRelative(dueTime) { [weak self] in
            self?.deliverNext(key: key)
        })
    }

    /// Each timer delivers the oldest pending event, so order holds on any scheduler.
    private func deliverNext(key: CompositeDisposable.DisposeKey) {
        let first = state.withLock { state -> Event<Element>? in
            guard !state.stopped, state.head < state.pending.count else { return nil }
            let event = state.pending[state.head]
            state.head += 1
            if state.head == state.pending.count {
                state.pending.removeAll(keepingCapacity: true)
                state.head = 0
            }
            if event.isStopEvent { state.stopped = true }
            return state.outbox.push(event)
        }
        timers.remove(for: key)
        deliver(first)
    }

    private func deliver(_ first: Event<Element>?) {
        deliver(first) { state.withLock { $0.outbox.pop() } }
    }

    override func dispose() {
        state.withLock { $0.stopped = true }
        super.dispose()
        timers.dispose()
    }
}
