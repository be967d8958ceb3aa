extension ObservableType {
    /// Transforms each element; a throw ends the sequence with that error.
    ///
    /// ```swift
    /// Observable.of(1, 2).map { $0 * 10 }   // 10, 20
    /// ```
    @inlinable
    public func map<Result>(_ transform: @escaping @Sendable (Element) throws -> Result) -> Observable<Result> {
        return lift(with: transform) { MapSink(downstream: $0, transform: $1) }
    }

    /// Transforms each element and drops the `nil` results.
    @inlinable
    public func compactMap<Result>(_ transform: @escaping @Sendable (Element) throws -> Result?) -> Observable<Result> {
        return lift(with: transform) { CompactMapSink(downstream: $0, transform: $1) }
    }
}

// @unchecked: state is touched only on the serialized event path; `transform` is immutable.
@usableFromInline
final class MapSink<Source, Result>: UpstreamEndingSink<Result>, OperatorSink, @unchecked Sendable {
    /// Fed by its upstream alone: it lets go of that upstream when it ends (see `ChainLink`).
    @inlinable static var endsWithItsUpstream: Bool { true }

    @usableFromInline let transform: @Sendable (Source) throws -> Result

    @inlinable
    init(downstream: AnyObserver<Result>, transform: @escaping @Sendable (Source) throws -> Result) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    @inlinable
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            guard !isStopped else { return }
            do {
                downstream.on(.next(try transform(element)))
            } catch {
                stop(with: .error(error))
            }
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}

// @unchecked: state is touched only on the serialized event path; `transform` is immutable.
@usableFromInline
final class CompactMapSink<Source, Result>: UpstreamEndingSink<Result>, OperatorSink, @unchecked Sendable {
    /// Fed by its upstream alone: it lets go of that upstream when it ends (see `ChainLink`).
    @inlinable static var endsWithItsUpstream: Bool { true }

    @usableFromInline let transform: @Sendable (Source) throws -> Result?

    @inlinable
    init(downstream: AnyObserver<Result>, transform: @escaping @Sendable (Source) throws -> Result?) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    @inlinable
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            guard !isStopped else { return }
            do {
                if let result = try transform(element) { downstream.on(.next(result)) }
            } catch {
                stop(with: .error(error))
            }
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}
