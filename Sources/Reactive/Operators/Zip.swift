extension ObservableType {
    /// Pairs the sources' elements by index (any number of sources, 2 to 8 in RxSwift) through
    /// `resultSelector`; completes when every source has completed; an error ends it at once.
    ///
    /// ```swift
    /// Observable.zip(names, ages) { "\($0) is \($1)" }
    /// ```
    public static func zip<each Source: ObservableConvertibleType>(
        _ source: repeat each Source,
        resultSelector: @escaping @Sendable (repeat (each Source).Element) throws -> Element
    ) -> Observable<Element> {
        combined(.zip, repeat each source, resultSelector: resultSelector)
    }

    /// Pairs the elements of a collection of sequences by index into `resultSelector`; completes
    /// when every source has completed, or when an element arrives that can never be paired
    /// because every other source has completed. An empty collection completes at once.
    public static func zip<Sources: Collection>(
        _ collection: Sources, resultSelector: @escaping @Sendable ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
        ZipLatestCore.observable(.zipCollection, collection.map { $0.asObservable() }, combine: resultSelector)
    }

    /// Pairs the elements of a collection of sequences by index, as arrays.
    ///
    /// ```swift
    /// Observable.zip([a, b, c])   // Observable<[Int]>
    /// ```
    public static func zip<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
        where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Element {
        ZipLatestCore.observable(.zipCollection, collection.map { $0.asObservable() }) { $0 }
    }
}

extension Observable where Element == Any {
    /// Pairs the sources' elements by index, as tuples (any number of sources, 2 to 8 in RxSwift).
    ///
    /// ```swift
    /// Observable.zip(names, ages)   // Observable<(String, Int)>
    /// ```
    public static func zip<each Source: ObservableConvertibleType>(
        _ source: repeat each Source
    ) -> Observable<(repeat (each Source).Element)> {
        Observable<(repeat (each Source).Element)>.zip(repeat each source) { (value: repeat (each Source).Element) in
            (repeat each value)
        }
    }
}
