import Foundation

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

// @unchecked: `generation` and `timedOut` are guarded by the recursive `lock`, held while forwarding.
final class TimeoutSink<Element: Sendable>: Sink<Element>, @unchecked Sendable {
    private let dueTime: Duration
    private let fallback: Observable<Element>?
    private let scheduler: any SchedulerType
    private let lock = NSRecursiveLock()
    private let timer = SerialDisposable()
    private let other = SingleAssignmentDisposable()
    private var generation = 0
    private var timedOut = false

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
        let switchToFallback: Bool = lock.withLock {
            guard !isStopped, !timedOut, generation == self.generation else { return false }
            timedOut = true
            upstream.dispose()
            if fallback != nil { return true }
            stop(with: .error(ReactiveError.timeout))
            return false
        }
        if switchToFallback, let fallback {
            other.setDisposable(fallback.subscribe(downstream))
        }
    }

    private func on(_ event: Event<Element>) {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped, !timedOut else { return }
        switch event {
        case .next(let element):
            generation += 1
            downstream.on(.next(element))
            startTimer(generation: generation)
        case .error, .completed:
            timer.dispose()
            stop(with: event)
        }
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
        other.dispose()
    }
}
