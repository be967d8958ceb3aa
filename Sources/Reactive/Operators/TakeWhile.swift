/// Whether `take(while:)` and `take(until:)` also emit the element that ends them.
public enum TakeBehavior: Sendable {
    /// Emit the element that ends the sequence, then complete.
    case inclusive
    /// Complete without emitting the element that ends the sequence.
    case exclusive
}

extension ObservableType {
    /// Emits elements while `predicate` holds, then completes (upstream disposed at once);
    /// `.inclusive` also emits the first element for which it fails. A throw ends the sequence.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 1).take(while: { $0 < 3 })   // 1, 2, completed
    /// ```
    public func take(
        while predicate: @escaping @Sendable (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
    ) -> Observable<Element> {
        return lift { TakeWhileSink(downstream: $0, predicate: predicate, behavior: behavior) }
    }

    /// Emits elements until `predicate` holds for one, then completes; `.inclusive` also emits
    /// that element. A throw ends the sequence.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 1).take(until: { $0 == 3 }, behavior: .inclusive)   // 1, 2, 3, completed
    /// ```
    public func take(
        until predicate: @escaping @Sendable (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
    ) -> Observable<Element> {
        take(while: { try !predicate($0) }, behavior: behavior)
    }
}

// @unchecked: state is touched only on the serialized event path; the closure is immutable.
final class TakeWhileSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private let predicate: @Sendable (Element) throws -> Bool
    private let behavior: TakeBehavior

    init(downstream: AnyObserver<Element>, predicate: @escaping @Sendable (Element) throws -> Bool, behavior: TakeBehavior) {
        self.predicate = predicate
        self.behavior = behavior
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isStopped else { return }
            do {
                if try predicate(element) {
                    downstream.on(.next(element))
                    return
                }
            } catch {
                stop(with: .error(error))
                return
            }
            if behavior == .inclusive { downstream.on(.next(element)) }
            stop(with: .completed)
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}
