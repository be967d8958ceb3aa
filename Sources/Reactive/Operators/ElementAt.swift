extension ObservableType {
    /// Emits the element at zero-based `index`, then completes (upstream disposed at once);
    /// fails with `ReactiveError.argumentOutOfRange` when the source completes before it, or
    /// at once for a negative index.
    ///
    /// ```swift
    /// Observable.of("a", "b", "c").element(at: 1)   // "b", completed
    /// ```
    public func element(at index: Int) -> Observable<Element> {
        guard index >= 0 else { return .error(ReactiveError.argumentOutOfRange) }
        return lift { ElementAtSink(downstream: $0, index: index) }
    }
}

// @unchecked: `remaining` is touched only on the serialized event path.
final class ElementAtSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private var remaining: Int

    init(downstream: AnyObserver<Element>, index: Int) {
        remaining = index
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            if remaining == 0 {
                downstream.on(.next(element))
                stop(with: .completed)
            } else {
                remaining -= 1
            }
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .error(ReactiveError.argumentOutOfRange))
        }
    }
}
