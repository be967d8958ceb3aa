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
        var lastSent: Instant?
        var waiting: Element?
        var timerRunning = false
        var completedWhileWaiting = false
        var stopped = false
    }

    /// When an element went out: on a virtual clock (`TestScheduler`, `HistoricalScheduler`) its
    /// tick, as `now` (a `Date` counted from
    /// 2001) rounds ticks finer than a second, and an element one window after the last one
    /// could look a fraction of a microsecond early and be dropped.
    private enum Instant {
        case date(Date)
        case tick(Int)
    }

    private let dueTime: Duration
    private let scheduler: any SchedulerType
    private let virtualClock: VirtualTimeScheduler?
    private let keepsLatest: Bool
    private let timer = SerialDisposable()
    private let state = LockedState(State())

    init(downstream: AnyObserver<Element>, dueTime: Duration, latest: Bool, scheduler: any SchedulerType) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        self.keepsLatest = latest
        virtualClock = (scheduler as? VirtualTimeScheduler) ?? (scheduler as? HistoricalScheduler)?.base
        super.init(downstream: downstream)
    }

    /// The scheduler's current time.
    private var now: Instant {
        if let virtualClock { return .tick(virtualClock.clock) }
        return .date(scheduler.now)
    }

    /// Whether a whole window has passed from `start` to `end` (always, with no `start`).
    private func windowPassed(from start: Instant?, to end: Instant) -> Bool {
        switch (start, end) {
        case (nil, _): true
        case (.tick(let start)?, .tick(let end)): end - start >= (virtualClock?.ticks(for: dueTime) ?? 0)
        case (.date(let start)?, .date(let end)): end.timeIntervalSince(start) >= dueTime.timeInterval
        case (.tick?, .date), (.date?, .tick): true
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = self.now
            let (first, startWindow) = state.withLock { state -> (Event<Element>?, Bool) in
                guard !state.stopped else { return (nil, false) }
                if windowPassed(from: state.lastSent, to: now) {
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
        let now = self.now
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
