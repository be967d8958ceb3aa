extension ObservableType {
    /// The first element, or `nil` when the source completes empty; the source is disposed at
    /// the first element.
    ///
    /// ```swift
    /// Observable.of(1, 2).first()   // Single: Optional(1)
    /// ```
    public func first() -> Single<Element?> {
        return Single(unchecked: lift { FirstSink(downstream: $0) })
    }
}

// @unchecked: state is touched only on the serialized event path.
final class FirstSink<Element>: Sink<Element?>, OperatorSink, @unchecked Sendable {
    func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            downstream.on(.next(element))
            stop(with: .completed)
        case .error(let error): stop(with: .error(error))
        case .completed:
            downstream.on(.next(nil))
            stop(with: .completed)
        }
    }
}
