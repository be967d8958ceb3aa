import Locking
import Synchronization

extension ObservableType where Element: Sendable {
    /// Delivers every event on `scheduler`, in order, one at a time.
    ///
    /// ```swift
    /// request.observe(on: MainScheduler.instance).subscribe(onNext: { render($0) })
    /// ```
    @inlinable
    public func observe(on scheduler: any SchedulerType) -> Observable<Element> {
        return lift { ObserveOnSink(downstream: $0, scheduler: scheduler) }
    }
}

// @unchecked: the queue and the draining flag live in a Lock; delivery happens in one drain at a time.
@usableFromInline
final class ObserveOnSink<Element: Sendable>: Sink<Element>, OperatorSink, @unchecked Sendable {
    @usableFromInline struct State {
        @usableFromInline var queue: [Event<Element>] = []
        @usableFromInline var isDraining = false
        @usableFromInline var isDisposed = false

        @inlinable init() {}
    }

    @usableFromInline let scheduler: any SchedulerType
    @usableFromInline let state = Lock(State())
    @usableFromInline let drainWork = SerialDisposable()
    /// RxSwift delivers one event per scheduled action; a drain delivering the whole queue is
    /// cheaper and looks the same, except on a virtual clock that adds RxTest's processing
    /// delay to each action, where one event per action keeps RxTest's timeline.
    @usableFromInline let oneEventPerAction: Bool
    /// Whether `Resources.numberOfSerialDispatchQueueObservables` counts this subscription.
    @usableFromInline let countedOnSerialQueue: Bool

    @inlinable
    init(downstream: AnyObserver<Element>, scheduler: any SchedulerType) {
        self.scheduler = scheduler
        oneEventPerAction = (scheduler as? VirtualTimeScheduler)?.simulatesProcessingDelay ?? false
        countedOnSerialQueue = Resources.beginSerialQueueObservation(on: scheduler)
        super.init(downstream: downstream)
    }

    deinit {
        if countedOnSerialQueue { Resources.endSerialQueueObservation() }
    }

    @inlinable
    func on(_ event: Event<Element>) {
        let startDrain = state.withLock { state -> Bool in
            guard !state.isDisposed else { return false }
            state.queue.append(event)
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        if startDrain {
            drainWork.disposable = scheduler.schedule { [weak self] in self?.drain() }
        }
    }

    @inlinable func drain() {
        while true {
            let batch = state.withLock { state -> [Event<Element>] in
                guard !state.isDisposed, !state.queue.isEmpty else {
                    state.isDraining = false
                    return []
                }
                if oneEventPerAction { return [state.queue.removeFirst()] }
                let batch = state.queue
                state.queue.removeAll(keepingCapacity: true)
                return batch
            }
            if batch.isEmpty { return }
            if oneEventPerAction {
                deliverAlone(batch[0])
                return
            }
            for event in batch {
                if state.withLock({ $0.isDisposed }) { return }
                switch event {
                case .next: downstream.on(event)
                case .error, .completed:
                    forwardTerminal(event)
                    return
                }
            }
        }
    }

    /// Delivers one event, then schedules the next action when more are queued.
    @usableFromInline func deliverAlone(_ event: Event<Element>) {
        if state.withLock({ $0.isDisposed }) { return }
        guard case .next = event else {
            forwardTerminal(event)
            return
        }
        downstream.on(event)
        let more = state.withLock { state -> Bool in
            guard !state.isDisposed, !state.queue.isEmpty else {
                state.isDraining = false
                return false
            }
            return true
        }
        if more { drainWork.disposable = scheduler.schedule { [weak self] in self?.drain() } }
    }

    @usableFromInline
    override func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.queue.removeAll()
        }
        super.dispose()
        drainWork.dispose()
    }
}
