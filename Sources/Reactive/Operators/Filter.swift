extension ObservableType {
    /// Keeps the elements that satisfy `predicate`; a throw ends the sequence with that error.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 4).filter { $0.isMultiple(of: 2) }   // 2, 4
    /// ```
    @inlinable
    public func filter(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Observable<Element> {
        return lift { FilterSink(downstream: $0, predicate: predicate) }
    }
}

// @unchecked: state is touched only on the serialized event path; `predicate` is immutable.
@usableFromInline
final class FilterSink<Element>: UpstreamEndingSink<Element>, OperatorSink, @unchecked Sendable {
    /// Fed by its upstream alone: it lets go of that upstream when it ends (see `ChainLink`).
    @inlinable static var endsWithItsUpstream: Bool { true }

    @usableFromInline let predicate: @Sendable (Element) throws -> Bool

    @inlinable
    init(downstream: AnyObserver<Element>, predicate: @escaping @Sendable (Element) throws -> Bool) {
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isStopped else { return }
            do {
                if try predicate(element) { downstream.on(.next(element)) }
            } catch {
                stop(with: .error(error))
            }
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}
