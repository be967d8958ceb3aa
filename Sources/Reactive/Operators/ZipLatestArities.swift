// `zip` and `combineLatest` with a result selector for 2 to 8 sources, written out per arity
// as RxSwift's overloads are. The parameter-pack declarations in Zip.swift and CombineLatest.swift
// take any number of sources, but with them alone the type checker gives up on a closure whose
// parameter types it must infer over many sources (`{ $0 + $1 + ... + $7 }` over eight); these
// overloads, preferred where they match, give it the types at once. All run `combined`.
extension ObservableType {
    /// The one implementation behind every `zip` and `combineLatest` of separate sources.
    static func combined<each Source: ObservableConvertibleType>(
        _ mode: ZipLatestCore.Mode, _ source: repeat each Source,
        resultSelector: @escaping @Sendable (repeat (each Source).Element) throws -> Element
    ) -> Observable<Element> {
        var sources: [Observable<Any>] = []
        for source in repeat each source { sources.append(ZipLatestCore.erase(source)) }
        return ZipLatestCore.observable(mode, sources) { values in
            var index = 0
            return try resultSelector(repeat ZipLatestCore.typed(values, &index, as: (each Source).Element.self))
        }
    }

    /// Pairs the elements of 2 sources by index through `resultSelector`; see the parameter-pack `zip`.
    public static func zip<O1, O2>(
        _ source1: O1,
        _ source2: O2,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType {
        combined(.zip, source1, source2, resultSelector: resultSelector)
    }

    /// Pairs the elements of 3 sources by index through `resultSelector`; see the parameter-pack `zip`.
    public static func zip<O1, O2, O3>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType {
        combined(.zip, source1, source2, source3, resultSelector: resultSelector)
    }

    /// Pairs the elements of 4 sources by index through `resultSelector`; see the parameter-pack `zip`.
    public static func zip<O1, O2, O3, O4>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType {
        combined(.zip, source1, source2, source3, source4, resultSelector: resultSelector)
    }

    /// Pairs the elements of 5 sources by index through `resultSelector`; see the parameter-pack `zip`.
    public static func zip<O1, O2, O3, O4, O5>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        resultSelector: @escaping @Sendable (
            O1.Element, O2.Element, O3.Element, O4.Element, O5.Element
        ) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType, O5: ObservableConvertibleType {
        combined(.zip, source1, source2, source3, source4, source5, resultSelector: resultSelector)
    }

    /// Pairs the elements of 6 sources by index through `resultSelector`; see the parameter-pack `zip`.
    public static func zip<O1, O2, O3, O4, O5, O6>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        resultSelector: @escaping @Sendable (
            O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element
        ) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType {
        combined(.zip, source1, source2, source3, source4, source5, source6, resultSelector: resultSelector)
    }

    /// Pairs the elements of 7 sources by index through `resultSelector`; see the parameter-pack `zip`.
    public static func zip<O1, O2, O3, O4, O5, O6, O7>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        resultSelector: @escaping @Sendable (
            O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element
        ) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
              O7: ObservableConvertibleType {
        combined(.zip, source1, source2, source3, source4, source5, source6, source7, resultSelector: resultSelector)
    }

    /// Pairs the elements of 8 sources by index through `resultSelector`; see the parameter-pack `zip`.
    public static func zip<O1, O2, O3, O4, O5, O6, O7, O8>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        _ source8: O8,
        resultSelector: @escaping @Sendable (
            O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element
        ) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
              O7: ObservableConvertibleType, O8: ObservableConvertibleType {
        combined(.zip, source1, source2, source3, source4, source5, source6, source7, source8, resultSelector: resultSelector)
    }

    /// Combines the latest elements of 2 sources with `resultSelector`; see the parameter-pack `combineLatest`.
    public static func combineLatest<O1, O2>(
        _ source1: O1,
        _ source2: O2,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType {
        combined(.combineLatest, source1, source2, resultSelector: resultSelector)
    }

    /// Combines the latest elements of 3 sources with `resultSelector`; see the parameter-pack `combineLatest`.
    public static func combineLatest<O1, O2, O3>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType {
        combined(.combineLatest, source1, source2, source3, resultSelector: resultSelector)
    }

    /// Combines the latest elements of 4 sources with `resultSelector`; see the parameter-pack `combineLatest`.
    public static func combineLatest<O1, O2, O3, O4>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType {
        combined(.combineLatest, source1, source2, source3, source4, resultSelector: resultSelector)
    }

    /// Combines the latest elements of 5 sources with `resultSelector`; see the parameter-pack `combineLatest`.
    public static func combineLatest<O1, O2, O3, O4, O5>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        resultSelector: @escaping @Sendable (
            O1.Element, O2.Element, O3.Element, O4.Element, O5.Element
        ) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType, O5: ObservableConvertibleType {
        combined(.combineLatest, source1, source2, source3, source4, source5, resultSelector: resultSelector)
    }

    /// Combines the latest elements of 6 sources with `resultSelector`; see the parameter-pack `combineLatest`.
    public static func combineLatest<O1, O2, O3, O4, O5, O6>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        resultSelector: @escaping @Sendable (
            O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element
        ) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType {
        combined(.combineLatest, source1, source2, source3, source4, source5, source6, resultSelector: resultSelector)
    }

    /// Combines the latest elements of 7 sources with `resultSelector`; see the parameter-pack `combineLatest`.
    public static func combineLatest<O1, O2, O3, O4, O5, O6, O7>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        resultSelector: @escaping @Sendable (
            O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element
        ) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
              O7: ObservableConvertibleType {
        combined(.combineLatest, source1, source2, source3, source4, source5, source6, source7, resultSelector: resultSelector)
    }

    /// Combines the latest elements of 8 sources with `resultSelector`; see the parameter-pack `combineLatest`.
    public static func combineLatest<O1, O2, O3, O4, O5, O6, O7, O8>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        _ source8: O8,
        resultSelector: @escaping @Sendable (
            O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element
        ) throws -> Element
    ) -> Observable<Element>
        where O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
              O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
              O7: ObservableConvertibleType, O8: ObservableConvertibleType {
        combined(.combineLatest, source1, source2, source3, source4, source5, source6, source7, source8, resultSelector: resultSelector)
    }
}
