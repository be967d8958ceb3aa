extension ObservableType {
    /// Maps each element to a sequence and merges their elements as they come.
    ///
    /// ```swift
    /// ids.flatMap { id in api.load(id) }
    /// ```
    @inlinable
    public func flatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        merging(maxConcurrent: Int.max, whenBusy: .wait) { try selector($0).asObservable() }
    }

    /// Maps each element to a sequence and runs those one after another, in order.
    @inlinable
    public func concatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        merging(maxConcurrent: 1, whenBusy: .wait) { try selector($0).asObservable() }
    }

    /// Maps an element to a sequence only while no earlier one is running: elements that arrive
    /// meanwhile are dropped (RxSwift's `flatMapFirst`).
    ///
    /// ```swift
    /// refreshTaps.flatMapFirst { _ in api.reload() }   // taps during a reload are ignored
    /// ```
    @inlinable
    public func flatMapFirst<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        merging(maxConcurrent: 1, whenBusy: .drop) { try selector($0).asObservable() }
    }

    /// The engine of `flatMap`, `concatMap`, `flatMapFirst`, `merge` and `concat`.
    @inlinable
    func merging<Result>(
        maxConcurrent: Int, whenBusy: MergeSink<Element, Result>.WhenBusy,
        _ selector: @escaping @Sendable (Element) throws -> Observable<Result>
    ) -> Observable<Result> {
        let source = asObservable()
        return Observable { observer in
            let sink = MergeSink(
                downstream: observer, maxConcurrent: max(1, maxConcurrent), whenBusy: whenBusy, selector: selector
            )
            sink.run(source)
            return sink
        }
    }
}
