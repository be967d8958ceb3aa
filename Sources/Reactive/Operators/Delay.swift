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
        /// The tick of the last timer, on a virtual clock simulating a processing delay.
        var lastDueTick = Int.min
    }

    private let dueTime: Duration
    private let scheduler: any SchedulerType
    /// Set on a virtual clock that simulates RxTest's processing delay. RxSwift delivers one
    /// event per timer and schedules the next for what is left of its delay, zero (so one tick
    /// later there) when it is already due: an event lands at `max(its tick + delay, the
    /// previous event's tick + 1)`, which timers at those ticks reproduce.
    private let rxTestClock: VirtualTimeScheduler?
    private let timers = CompositeDisposable()
    private let state = LockedState(State())

    init(downstream: AnyObserver<Element>, dueTime: Duration, scheduler: any SchedulerType) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        let virtual = scheduler as? VirtualTimeScheduler
        rxTestClock = virtual?.simulatesProcessingDelay == true ? virtual : nil
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
        let accepted = state.withLock { state -> Int?? in
            guard !state.stopped else { return nil }
            state.pending.append(event)
            guard let clock = rxTestClock else { return .some(nil) }
            let due = max(clock.clock + clock.ticks(for: dueTime), state.lastDueTick + 1)
            state.lastDueTick = due
            return due
        }
        guard let dueTick = accepted else { return }
        let timer = SingleAssignmentDisposable()
        guard let key = timers.insert(timer) else { return }
        let fire: @Sendable () -> Void = { [weak self] in self?.deliverNext(key: key) }
        if let dueTick, let clock = rxTestClock {
            timer.setDisposable(clock.scheduleAbsolute(dueTick, action: fire))
        } else {
            timer.setDisposable(scheduler.scheduleRelative(dueTime, action: fire))
        }
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
        state.withLock { state in
            state.stopped = true
            state.outbox.close()
        }
        super.dispose()
        timers.dispose()
    }
}
