extension ObservableType {
    /// Emits the only element as it arrives and completes with the source; fails with
    /// `ReactiveError.moreThanOneElement` at a second element and with `.noElements` when the
    /// source completes empty.
    ///
    /// ```swift
    /// Observable.of(1).single()   // 1, completed
    /// ```
    public func single() -> Observable<Element> {
        return lift { SingleElementSink(downstream: $0, predicate: nil) }
    }

    /// Like `single()`, counting only the elements that satisfy `predicate`; a throw ends the
    /// sequence.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).single { $0 == 2 }   // 2, completed
    /// ```
    public func single(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Observable<Element> {
        return lift { SingleElementSink(downstream: $0, predicate: predicate) }
    }
}

// @unchecked: `seen` is touched only on the serialized event path; the predicate is immutable.
final class SingleElementSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private let predicate: (@Sendable (Element) throws -> Bool)?
    private var seen = false

    init(downstream: AnyObserver<Element>, predicate: (@Sendable (Element) throws -> Bool)?) {
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            do {
                if let predicate, try !predicate(element) { return }
            } catch {
                stop(with: .error(error))
                return
            }
            if seen {
                stop(with: .error(ReactiveError.moreThanOneElement))
                return
            }
            seen = true
            downstream.on(.next(element))
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: seen ? .completed : .error(ReactiveError.noElements))
        }
    }
}
