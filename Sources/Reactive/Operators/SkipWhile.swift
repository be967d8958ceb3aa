extension ObservableType {
    /// Drops elements while `predicate` holds, then emits every element from the first one for
    /// which it fails. A throw ends the sequence.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 1).skip(while: { $0 < 3 })   // 3, 1
    /// ```
    public func skip(while predicate: @escaping @Sendable (Element) throws -> Bool) -> Observable<Element> {
        return lift { SkipWhileSink(downstream: $0, predicate: predicate) }
    }
}

// @unchecked: `skipping` is touched only on the serialized event path; the closure is immutable.
final class SkipWhileSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private let predicate: @Sendable (Element) throws -> Bool
    private var skipping = true

    init(downstream: AnyObserver<Element>, predicate: @escaping @Sendable (Element) throws -> Bool) {
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isStopped else { return }
            if skipping {
                do {
                    skipping = try predicate(element)
                } catch {
                    stop(with: .error(error))
                    return
                }
                if skipping { return }
            }
            downstream.on(.next(element))
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}
