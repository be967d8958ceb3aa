extension ObservableType {
    /// The first `count` elements, then completion (upstream disposed at once).
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).take(2)   // 1, 2, completed
    /// ```
    public func take(_ count: Int) -> Observable<Element> {
        guard count > 0 else { return .empty() }
        return lift { TakeSink(downstream: $0, count: count) }
    }
}

// @unchecked: `remaining` is touched only on the serialized event path.
final class TakeSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private var remaining: Int

    init(downstream: AnyObserver<Element>, count: Int) {
        remaining = count
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isStopped, remaining > 0 else { return }
            remaining -= 1
            downstream.on(.next(element))
            if remaining == 0 { stop(with: .completed) }
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}
