import Synchronization

extension ObservableType {
    /// Drops the elements that arrive within `duration` of subscription, then emits the rest.
    /// The timer only opens the gate, so the element type need not be `Sendable`.
    ///
    /// ```swift
    /// readings.skip(for: .seconds(1), scheduler: MainScheduler.instance)
    /// ```
    public func skip(for duration: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = SkipForSink<Element>(downstream: observer)
            sink.timer.setDisposable(scheduler.scheduleRelative(duration) { sink.open() })
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            return sink
        }
    }

    /// RxSwift's spelling of `skip(for:scheduler:)`.
    public func skip(_ duration: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        skip(for: duration, scheduler: scheduler)
    }
}

// @unchecked: `isOpen` is atomic (the timer sets it); the rest is on the serialized event path.
final class SkipForSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    let timer = SingleAssignmentDisposable()
    private let isOpen = Atomic<Bool>(false)

    func open() {
        isOpen.store(true, ordering: .releasing)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if isOpen.load(ordering: .acquiring) { forwardNext(element) }
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
