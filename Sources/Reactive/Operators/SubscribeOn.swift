import Synchronization

extension ObservableType where Element: Sendable {
    /// Subscribes to (and later disposes) the source on `scheduler`; a terminal event also
    /// disposes the source there, as in RxSwift (on a `TestScheduler` simulating RxTest's
    /// processing delay, a source subscribed at 201 that completes at 300 is disposed at 301).
    ///
    /// ```swift
    /// heavyWork.subscribe(on: ConcurrentDispatchQueueScheduler(qos: .utility))
    /// ```
    public func subscribe(on scheduler: any SchedulerType) -> Observable<Element> {
        let source = self
        return Observable { observer in
            let sink = SubscribeOnSink(downstream: observer, scheduler: scheduler)
            sink.upstream.set(scheduler.schedule { sink.subscribe(source) })
            return sink
        }
    }
}

/// Forwards the source's events; its disposal of the source runs on the scheduler, once.
// @unchecked: `isStopped` is on the serialized event path; `disposed` is atomic; the rest is
// immutable or a self-locking disposable.
final class SubscribeOnSink<Element>: Sink<Element>, @unchecked Sendable {
    private let scheduler: any SchedulerType
    private let subscription = SingleAssignmentDisposable()
    private let disposed = Atomic<Bool>(false)

    init(downstream: AnyObserver<Element>, scheduler: any SchedulerType) {
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    /// Subscribes the source itself (not a wrapper), so that its subscription ends when this
    /// sink disposes it on the scheduler.
    func subscribe<Source: ObservableType>(_ source: Source) where Source.Element == Element {
        subscription.setDisposable(source.subscribe(AnyObserver { self.on($0) }))
    }

    private func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .error, .completed: stop(with: event)
        }
    }

    override func dispose() {
        super.dispose()
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let subscription = self.subscription
        scheduler.schedule { subscription.dispose() }
    }
}
