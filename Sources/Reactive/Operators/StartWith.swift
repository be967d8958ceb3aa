extension ObservableType {
    /// Emits `elements` first, then the source's events.
    ///
    /// ```swift
    /// Observable.of(3).startWith(1, 2)   // 1, 2, 3
    /// ```
    public func startWith(_ elements: Element...) -> Observable<Element> {
        Observable.concat([Observable.from(elements), asObservable()])
    }
}
