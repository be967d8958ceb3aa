extension Observable {
    /// Never emits and never ends.
    public static func never() -> Observable<Element> {
        Observable { _ in Disposables.create() }
    }
}
