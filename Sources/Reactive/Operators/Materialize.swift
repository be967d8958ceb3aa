extension ObservableType {
    /// Every event of the source as an element: its elements, then its terminal event, then
    /// completion. The result never fails.
    ///
    /// ```swift
    /// Observable.of(1).materialize()   // .next(1), .completed, completed
    /// ```
    public func materialize() -> Observable<Event<Element>> {
        return lift { MaterializeSink(downstream: $0) }
    }
}

// @unchecked: state is touched only on the serialized event path.
final class MaterializeSink<Element>: Sink<Event<Element>>, OperatorSink, @unchecked Sendable {
    func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        downstream.on(.next(event))
        if event.isStopEvent { stop(with: .completed) }
    }
}
