extension ObservableType {
    /// Drops the first `count` elements.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).skip(2)   // 3
    /// ```
    public func skip(_ count: Int) -> Observable<Element> {
        return lift { SkipSink(downstream: $0, count: count) }
    }
}

// @unchecked: `remaining` is touched only on the serialized event path.
final class SkipSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private var remaining: Int

    init(downstream: AnyObserver<Element>, count: Int) {
        remaining = count
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if remaining > 0 {
                remaining -= 1
            } else {
                downstream.on(.next(element))
            }
        case .error, .completed: forwardTerminal(event)
        }
    }
}
