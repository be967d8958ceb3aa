extension ObservableType {
    /// Folds every element into `seed` and emits the result when the source completes; a
    /// throw ends the sequence.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).reduce(0, accumulator: +)   // 6, completed
    /// ```
    public func reduce<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping @Sendable (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        reduce(seed, accumulator: accumulator, mapResult: { $0 })
    }

    /// Folds every element into `seed` and emits `mapResult` of the total when the source
    /// completes; a throw of either closure ends the sequence.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).reduce(0, accumulator: +, mapResult: { "\($0)" })   // "6", completed
    /// ```
    public func reduce<Accumulate, Result>(
        _ seed: Accumulate,
        accumulator: @escaping @Sendable (Accumulate, Element) throws -> Accumulate,
        mapResult: @escaping @Sendable (Accumulate) throws -> Result
    ) -> Observable<Result> {
        return lift { ReduceSink(downstream: $0, seed: seed, accumulator: accumulator, mapResult: mapResult) }
    }
}

// @unchecked: `accumulated` is touched only on the serialized event path; the closures are immutable.
final class ReduceSink<Element, Accumulate, Result>: Sink<Result>, OperatorSink, @unchecked Sendable {
    private var accumulated: Accumulate
    private let accumulator: @Sendable (Accumulate, Element) throws -> Accumulate
    private let mapResult: @Sendable (Accumulate) throws -> Result

    init(
        downstream: AnyObserver<Result>, seed: Accumulate,
        accumulator: @escaping @Sendable (Accumulate, Element) throws -> Accumulate,
        mapResult: @escaping @Sendable (Accumulate) throws -> Result
    ) {
        accumulated = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            do {
                accumulated = try accumulator(accumulated, element)
            } catch {
                stop(with: .error(error))
            }
        case .error(let error): stop(with: .error(error))
        case .completed:
            let result: Result
            do {
                result = try mapResult(accumulated)
            } catch {
                stop(with: .error(error))
                return
            }
            downstream.on(.next(result))
            stop(with: .completed)
        }
    }
}
