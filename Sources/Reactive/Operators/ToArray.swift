extension ObservableType {
    /// Collects every element and emits them as one array when the source completes.
    ///
    /// ```swift
    /// Observable.of(1, 2).toArray()   // Single: [1, 2]
    /// ```
    public func toArray() -> Single<[Element]> {
        return Single(unchecked: lift { ToArraySink(downstream: $0) })
    }
}

// @unchecked: `elements` is touched only on the serialized event path.
final class ToArraySink<Element>: Sink<[Element]>, OperatorSink, @unchecked Sendable {
    private var elements: [Element] = []

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): elements.append(element)
        case .error(let error): stop(with: .error(error))
        case .completed:
            downstream.on(.next(elements))
            stop(with: .completed)
        }
    }
}
