import Foundation

extension ObservableType where Element: Sendable {
    /// Emits the first element, then at most one per `dueTime`: with `latest`, the newest one
    /// seen during the window goes out when the window ends.
    ///
    /// ```swift
    /// taps.throttle(.seconds(1), scheduler: MainScheduler.instance)
    /// ```
    public func throttle(
        _ dueTime: Duration, latest: Bool = true, scheduler: any SchedulerType
    ) -> Observable<Element> {
        return lift { ThrottleSink(downstream: $0, dueTime: dueTime, latest: latest, scheduler: scheduler) }
    }
}

/// State changes under `state`'s lock; windows are scheduled and events delivered (through the
/// `Outbox`) outside it.
// @unchecked: every mutable field is in `state`, a `LockedState` never held while calling out.
final class ThrottleSink<Element: Sendable>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private struct State {
        var outbox = Outbox<Element>()
        var lastSent: Date?
        var waiting: Element?
        var timerRunning = false
        var completedWhileWaiting = false
        var stopped = false
    }

    private let dueTime: Duration
    private let scheduler: any SchedulerType
    private let keepsLatest: Bool
    private let timer = SerialDisposable()
    private let state = LockedState(State())

    init(downstream: AnyObserver<Element>, dueTime: Duration, latest: Bool, scheduler: any SchedulerType) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        self.keepsLatest = latest
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = scheduler.now
            let window = dueTime.timeInterval
            let (first, startWindow) = state.withLock { state -> (Event<Element>?, Bool) in
                guard !state.stopped else { return (nil, false) }
                let elapsed = state.lastSent.map { now.timeIntervalSince($0) } ?? .infinity
                if elapsed >= window {
                    state.lastSent = now
                    state.waiting = nil
                    state.timerRunning = true
                    return (state.outbox.push(.next(element)), true)
                }
                guard keepsLatest else { return (nil, false) }
                state.waiting = element
                if state.timerRunning { return (nil, false) }
                state.timerRunning = true
                return (nil, true)
            }
            if startWindow { self.startWindow() }
            deliver(first)
        case .error:
            deliver(state.withLock { state in
                guard !state.stopped else { return nil }
                state.stopped = true
                return state.outbox.push(event)
            })
        case .completed:
            deliver(state.withLock { state in
                guard !state.stopped else { return nil }
                if state.waiting != nil {
                    state.completedWhileWaiting = true
                    return nil
                }
                state.stopped = true
                return state.outbox.push(.completed)
            })
        }
    }

    private func startWindow() {
        timer.disposable = scheduler.scheduleRelative(dueTime) { [weak self] in
            self?.windowEnded()
        }
    }

    private func windowEnded() {
        let now = scheduler.now
        let (first, restart) = state.withLock { state -> (Event<Element>?, Bool) in
            state.timerRunning = false
            guard !state.stopped, let waiting = state.waiting else { return (nil, false) }
            state.waiting = nil
            state.lastSent = now
            let first = state.outbox.push(.next(waiting))
            if state.completedWhileWaiting {
                state.stopped = true
                return (state.outbox.push(.completed) ?? first, false)
            }
            state.timerRunning = true
            return (first, true)
        }
        if restart { startWindow() }
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
        timer.dispose()
    }
}
