extension ObservableType {
    /// Emits `resultSelector` of the latest element of each source whenever one emits, once all
    /// have emitted (any number of sources, 2 to 8 in RxSwift); completes when all have
    /// completed, or when an element arrives that can never be combined because every other
    /// source completed without an element; an error ends it at once.
    ///
    /// ```swift
    /// Observable.combineLatest(user, settings) { ($0, $1) }
    /// ```
    public static func combineLatest<each Source: ObservableConvertibleType>(
        _ source: repeat each Source,
        resultSelector: @escaping @Sendable (repeat (each Source).Element) throws -> Element
    ) -> Observable<Element> {
        combined(.combineLatest, repeat each source, resultSelector: resultSelector)
    }

    /// The latest elements of a collection of sequences, combined by `resultSelector`; an empty
    /// collection emits `resultSelector([])` and completes at subscription.
    public static func combineLatest<Sources: Collection>(
        _ collection: Sources, resultSelector: @escaping @Sendable ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
        ZipLatestCore.observable(.combineLatest, collection.map { $0.asObservable() }, combine: resultSelector)
    }

    /// The latest elements of a collection of sequences, as arrays; an empty collection emits
    /// `[]` and completes at subscription.
    ///
    /// ```swift
    /// Observable.combineLatest([a, b, c])   // Observable<[Int]>
    /// ```
    public static func combineLatest<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
        where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Element {
        ZipLatestCore.observable(.combineLatest, collection.map { $0.asObservable() }) { $0 }
    }
}

extension Observable where Element == Any {
    /// The latest elements of the sources, as tuples (any number of sources, 2 to 8 in RxSwift).
    ///
    /// ```swift
    /// Observable.combineLatest(user, settings)   // Observable<(User, Settings)>
    /// ```
    public static func combineLatest<each Source: ObservableConvertibleType>(
        _ source: repeat each Source
    ) -> Observable<(repeat (each Source).Element)> {
        Observable<(repeat (each Source).Element)>.combineLatest(repeat each source) { (value: repeat (each Source).Element) in
            (repeat each value)
        }
    }
}
