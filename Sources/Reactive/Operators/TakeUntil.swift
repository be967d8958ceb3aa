import Synchronization

extension ObservableType {
    /// Emits elements until `other` emits one, then completes; an error of `other` fails the
    /// result, its completion changes nothing. `other` is subscribed first.
    ///
    /// ```swift
    /// ticks.take(until: stopButtonTaps)
    /// ```
    public func take<Other: ObservableConvertibleType>(until other: Other) -> Observable<Element> {
        let source = asObservable()
        let trigger = other.asObservable()
        return Observable { observer in
            let sink = TakeUntilSink<Element>(downstream: observer)
            sink.other.setDisposable(trigger.subscribe(handler: { sink.onOther($0) }))
            if !sink.gate.isStopped {
                sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            }
            return sink
        }
    }
}

// @unchecked: the gate serializes the two upstreams' events; `other` is a locked slot.
final class TakeUntilSink<Element>: Sink<Element>, @unchecked Sendable {
    let gate = EmissionGate()
    let other = SingleAssignmentDisposable()

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

    func onOther<Other>(_ event: Event<Other>) {
        switch event {
        case .next: terminate(.completed)
        case .error(let error): terminate(.error(error))
        case .completed: other.dispose()
        }
    }

    private func terminate(_ terminal: EmissionGate.Terminal) {
        if let terminal = gate.terminate(terminal) { forwardTerminal(terminal.event()) }
    }

    override func dispose() {
        super.dispose()
        other.dispose()
    }
}
