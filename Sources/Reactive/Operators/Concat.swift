extension ObservableType where Element: ObservableConvertibleType {
    /// Subscribes the inner sequences one after another, each once the previous completed.
    public func concat() -> Observable<Element.Element> {
        concatMap { $0 }
    }
}

extension ObservableType {
    /// Subscribes `sources` one after another.
    ///
    /// ```swift
    /// Observable.concat(cached, fresh)
    /// ```
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        concat(sources)
    }

    /// Subscribes `sources` one after another.
    public static func concat(_ sources: [Observable<Element>]) -> Observable<Element> {
        Observable<Observable<Element>>.from(sources).concat()
    }

    /// Subscribes the observables of a sequence or collection one after another (the sequence
    /// is read in full when `concat` is called).
    public static func concat<Sources: Sequence>(_ sequence: Sources) -> Observable<Element>
        where Sources.Element == Observable<Element> {
        concat(Array(sequence))
    }

    /// This sequence, then `second`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
        where Source.Element == Element {
        Observable.concat([asObservable(), second.asObservable()])
    }
}
