import Synchronization

extension Single where Element: Sendable {
    /// `timeout` for a Single: like the observable operator (the timer is scheduled before the
    /// source is subscribed), but the answer and the timer race once, with no timer restart.
    @inlinable
    func timeoutOnce(_ dueTime: Duration, scheduler: any SchedulerType) -> Single<Element> {
        let source = self.source
        return Single(unchecked: Observable { observer in
            let sink = SingleTimeoutSink(downstream: observer)
            sink.run(source, dueTime: dueTime, scheduler: scheduler)
            return sink
        })
    }
}

/// The sink of `Single.timeout`: the first of the answer and the timer wins, decided by one
/// atomic, so nothing is locked while an event goes downstream. A Single's `.next` is followed by
/// its `.completed`, so the element cancels the timer instead of restarting it.
// @unchecked: `phase` is atomic, `timer` and `upstream` are locked slots; `isStopped` is written
// only by the side that won `phase`.
@usableFromInline
final class SingleTimeoutSink<Element: Sendable>: Sink<Element>, @unchecked Sendable {
    /// 0 waiting, 1 answered (the source won), 2 timed out.
    @usableFromInline let phase = Atomic<Int>(0)
    @usableFromInline let timer = DisposableSlot()

    /// Schedules the timer, then subscribes the source. The timer holds the sink until it runs
    /// or is disposed (by the answer or by `dispose()`).
    @inlinable
    func run(_ source: Observable<Element>, dueTime: Duration, scheduler: any SchedulerType) {
        timer.set(scheduler.scheduleRelative(dueTime) { self.fire() })
        upstream.set(source.subscribe(handler: { self.on($0) }))
    }

    @usableFromInline
    func fire() {
        guard phase.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged else { return }
        upstream.dispose()
        stop(with: .error(ReactiveError.timeout))
    }

    @inlinable
    func on(_ event: Event<Element>) {
        let (won, previous) = phase.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing)
        guard won || previous == 1 else { return }
        switch event {
        case .next(let element):
            guard won else { return }
            timer.dispose()
            forwardNext(element)
        case .error, .completed:
            timer.dispose()
            stop(with: event)
        }
    }

    @usableFromInline
    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
