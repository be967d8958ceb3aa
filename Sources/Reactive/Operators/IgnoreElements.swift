extension ObservableType {
    /// Drops every element: a `Completable` that completes or fails with the source.
    ///
    /// ```swift
    /// upload.ignoreElements().subscribe(onCompleted: { print("done") })
    /// ```
    public func ignoreElements() -> Completable {
        asCompletable()
    }
}
