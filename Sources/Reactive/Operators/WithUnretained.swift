extension ObservableType {
    /// Pairs each element with `object`, held weakly; once the object is gone, the next
    /// element completes the sequence instead (RxSwift's `withUnretained`).
    ///
    /// ```swift
    /// taps.withUnretained(self).subscribe(onNext: { owner, _ in owner.refresh() })
    /// ```
    public func withUnretained<Object: AnyObject & Sendable>(_ object: Object) -> Observable<(Object, Element)> {
        withUnretained(object) { ($0, $1) }
    }

    /// Combines each element with `object`, held weakly, through `resultSelector`; once the
    /// object is gone, the next element completes the sequence instead.
    public func withUnretained<Object: AnyObject & Sendable, Result>(
        _ object: Object, resultSelector: @escaping @Sendable (Object, Element) throws -> Result
    ) -> Observable<Result> {
        take(while: { [weak object] _ in object != nil })
            .compactMap { [weak object] element in
                guard let object else { return nil }
                return try resultSelector(object, element)
            }
    }
}
