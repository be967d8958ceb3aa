extension Completable {
    /// Runs `second` after this completes; a failure skips it.
    ///
    /// ```swift
    /// login.andThen(loadProfile)
    /// ```
    public func andThen(_ second: Completable) -> Completable {
        Completable(unchecked: Observable.concat([source, second.source]))
    }

    /// Answers with `second` after this completes; a failure skips it.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(unchecked: Observable.concat([source.map { _ -> Element in }, second.source]))
    }

    /// Continues with `second` after this completes; a failure skips it.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(unchecked: Observable.concat([source.map { _ -> Element in }, second.source]))
    }

    /// Continues with the elements of `second` after this completes; a failure skips it.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        Observable.concat([source.map { _ -> Element in }, second])
    }
}
