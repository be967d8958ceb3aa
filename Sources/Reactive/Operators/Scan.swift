extension ObservableType {
    /// Emits each intermediate result of folding the elements into `seed`.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).scan(0, accumulator: +)   // 1, 3, 6
    /// ```
    public func scan<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping @Sendable (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        scan(into: seed) { accumulated, element in accumulated = try accumulator(accumulated, element) }
    }

    /// Like `scan(_:accumulator:)`, mutating the accumulated value in place.
    public func scan<Accumulate>(
        into seed: Accumulate, accumulator: @escaping @Sendable (inout Accumulate, Element) throws -> Void
    ) -> Observable<Accumulate> {
        return lift { ScanSink(downstream: $0, seed: seed, accumulator: accumulator) }
    }
}

// @unchecked: `accumulated` is touched only on the serialized event path.
final class ScanSink<Element, Accumulate>: Sink<Accumulate>, OperatorSink, @unchecked Sendable {
    private var accumulated: Accumulate
    private let accumulator: @Sendable (inout Accumulate, Element) throws -> Void

    init(
        downstream: AnyObserver<Accumulate>, seed: Accumulate,
        accumulator: @escaping @Sendable (inout Accumulate, Element) throws -> Void
    ) {
        accumulated = seed
        self.accumulator = accumulator
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isStopped else { return }
            do {
                try accumulator(&accumulated, element)
                downstream.on(.next(accumulated))
            } catch {
                stop(with: .error(error))
            }
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}
