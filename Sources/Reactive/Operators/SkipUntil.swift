import Synchronization

extension ObservableType {
    /// Drops elements until `other` emits one, then emits the rest; an error of `other` fails
    /// the result. As in RxSwift, a source that completes before `other` emitted ends the
    /// subscription without a completion event.
    ///
    /// ```swift
    /// values.skip(until: ready)
    /// ```
    public func skip<Other: ObservableConvertibleType>(until other: Other) -> Observable<Element> {
        let source = asObservable()
        let trigger = other.asObservable()
        return Observable { observer in
            let relay = DetachableObserver(observer)
            let sink = SkipUntilSink<Element>(downstream: relay.observer, relay: relay)
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            if !sink.gate.isStopped {
                sink.other.setDisposable(trigger.subscribe(handler: { sink.onOther($0) }))
            }
            return sink
        }
    }
}

/// Its downstream goes through a `DetachableObserver`, detached when the subscription ends: a
/// source that completes first ends it without an event, and the subscriber, which holds this
/// sink, must not stay held by it (RxSwift's `testSkipUntil…ReleasesResources…`).
// @unchecked: the gate serializes the two upstreams' events; `open` is atomic; `other` is a locked slot.
final class SkipUntilSink<Element>: Sink<Element>, @unchecked Sendable {
    let gate = EmissionGate()
    let other = SingleAssignmentDisposable()
    private let open = Atomic<Bool>(false)
    private let relay: DetachableObserver<Element>

    init(downstream: AnyObserver<Element>, relay: DetachableObserver<Element>) {
        self.relay = relay
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard open.load(ordering: .acquiring), gate.beginElement() else { return }
            downstream.on(.next(element))
            if let terminal = gate.endElement() { forwardTerminal(terminal.event()) }
        case .error(let error): terminate(.error(error))
        case .completed:
            if open.load(ordering: .acquiring) {
                terminate(.completed)
            } else {
                _ = gate.terminate(.completed)
                dispose()
            }
        }
    }

    func onOther<Other>(_ event: Event<Other>) {
        switch event {
        case .next:
            open.store(true, ordering: .releasing)
            other.dispose()
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
        relay.detach()
    }
}
