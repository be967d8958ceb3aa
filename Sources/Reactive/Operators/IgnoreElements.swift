extension ObservableType {
    /// Drops every element: a `Completable` that completes or fails with the source.
    ///
    /// ```swift
    /// upload.ignoreElements().subscribe(onCompleted: { print("done") })
    /// ```
    public func ignoreElements() -> Completable {
        completableIgnoringElements()
    }
}

extension Completable {
    /// Returns `self`, so RxSwift 6 code written as `ignoreElements().asCompletable()` (where
    /// `ignoreElements()` returns an `Observable<Never>`) compiles unchanged.
    public func asCompletable() -> Completable { self }
}
