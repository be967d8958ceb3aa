extension ObservableType {
    /// Emits the elements that arrive within `duration` of subscription, then completes. The
    /// timer sends only the completion, so the element type need not be `Sendable`.
    ///
    /// ```swift
    /// readings.take(for: .seconds(5), scheduler: MainScheduler.instance)
    /// ```
    public func take(for duration: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = TakeForSink<Element>(downstream: observer)
            sink.timer.setDisposable(scheduler.scheduleRelative(duration) { sink.terminate(.completed) })
            if !sink.gate.isStopped {
                sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            }
            return sink
        }
    }
}

// @unchecked: the gate serializes upstream events with the timer's completion; `timer` is a locked slot.
final class TakeForSink<Element>: Sink<Element>, @unchecked Sendable {
    let gate = EmissionGate()
    let timer = SingleAssignmentDisposable()

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard gate.beginElement() else { return }
            downstream.on(.next(element))
            if let terminal = gate.endElement() { forwardTerminal(terminal.event()) }
        case .error(let error): terminate(.error(error))
        case .completed: terminate(.completed)
        }
    }

    func terminate(_ terminal: EmissionGate.Terminal) {
        if let terminal = gate.terminate(terminal) { forwardTerminal(terminal.event()) }
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
