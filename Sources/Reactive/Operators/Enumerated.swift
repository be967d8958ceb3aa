extension ObservableType {
    /// Pairs each element with its zero-based index.
    ///
    /// ```swift
    /// Observable.of("a", "b").enumerated()   // (0, "a"), (1, "b")
    /// ```
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        return lift { EnumeratedSink(downstream: $0) }
    }
}

// @unchecked: `index` is touched only on the serialized event path.
final class EnumeratedSink<Element>: Sink<(index: Int, element: Element)>, OperatorSink, @unchecked Sendable {
    private var index = 0

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isStopped else { return }
            let current = index
            index += 1
            downstream.on(.next((index: current, element: element)))
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}
