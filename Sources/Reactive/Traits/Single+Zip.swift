// The `zip` family of `Single` for 2 to 8 sources, each `Observable.zip` over the sources. They
// are written out per arity, as RxSwift's overload set is: with one parameter-pack overload the
// type checker gives up on a closure like `{ $0 + $1 + ... + $7 }` over eight sources.
extension Single {
    /// Combines the answers of 2 singles with `resultSelector`; fails at the first failure.
    public static func zip<E1, E2>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        resultSelector: @escaping @Sendable (E1, E2) throws -> Element
    ) -> Single<Element> {
        Single(unchecked: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// The answers of 2 singles as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2>(
        _ source1: Single<E1>,
        _ source2: Single<E2>
    ) -> Single<Element> where Element == (E1, E2) {
        zip(source1, source2) { ($0, $1) }
    }

    /// Combines the answers of 3 singles with `resultSelector`; fails at the first failure.
    public static func zip<E1, E2, E3>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        resultSelector: @escaping @Sendable (E1, E2, E3) throws -> Element
    ) -> Single<Element> {
        Single(unchecked: Observable.zip(
            source1.source, source2.source,
            source3.source,
            resultSelector: resultSelector
        ))
    }

    /// The answers of 3 singles as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>
    ) -> Single<Element> where Element == (E1, E2, E3) {
        zip(source1, source2, source3) { ($0, $1, $2) }
    }

    /// Combines the answers of 4 singles with `resultSelector`; fails at the first failure.
    public static func zip<E1, E2, E3, E4>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4) throws -> Element
    ) -> Single<Element> {
        Single(unchecked: Observable.zip(
            source1.source, source2.source,
            source3.source, source4.source,
            resultSelector: resultSelector
        ))
    }

    /// The answers of 4 singles as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>
    ) -> Single<Element> where Element == (E1, E2, E3, E4) {
        zip(source1, source2, source3, source4) { ($0, $1, $2, $3) }
    }

    /// Combines the answers of 5 singles with `resultSelector`; fails at the first failure.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>,
        _ source5: Single<E5>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5) throws -> Element
    ) -> Single<Element> {
        Single(unchecked: Observable.zip(
            source1.source, source2.source, source3.source,
            source4.source, source5.source,
            resultSelector: resultSelector
        ))
    }

    /// The answers of 5 singles as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>,
        _ source5: Single<E5>
    ) -> Single<Element> where Element == (E1, E2, E3, E4, E5) {
        zip(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
    }

    /// Combines the answers of 6 singles with `resultSelector`; fails at the first failure.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>,
        _ source5: Single<E5>,
        _ source6: Single<E6>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> Single<Element> {
        Single(unchecked: Observable.zip(
            source1.source, source2.source, source3.source,
            source4.source, source5.source, source6.source,
            resultSelector: resultSelector
        ))
    }

    /// The answers of 6 singles as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>,
        _ source5: Single<E5>,
        _ source6: Single<E6>
    ) -> Single<Element> where Element == (E1, E2, E3, E4, E5, E6) {
        zip(source1, source2, source3, source4, source5, source6) { ($0, $1, $2, $3, $4, $5) }
    }

    /// Combines the answers of 7 singles with `resultSelector`; fails at the first failure.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>,
        _ source5: Single<E5>,
        _ source6: Single<E6>,
        _ source7: Single<E7>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7) throws -> Element
    ) -> Single<Element> {
        Single(unchecked: Observable.zip(
            source1.source, source2.source, source3.source, source4.source,
            source5.source, source6.source, source7.source,
            resultSelector: resultSelector
        ))
    }

    /// The answers of 7 singles as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>,
        _ source5: Single<E5>,
        _ source6: Single<E6>,
        _ source7: Single<E7>
    ) -> Single<Element> where Element == (E1, E2, E3, E4, E5, E6, E7) {
        zip(source1, source2, source3, source4, source5, source6, source7) { ($0, $1, $2, $3, $4, $5, $6) }
    }

    /// Combines the answers of 8 singles with `resultSelector`; fails at the first failure.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>,
        _ source5: Single<E5>,
        _ source6: Single<E6>,
        _ source7: Single<E7>,
        _ source8: Single<E8>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
    ) -> Single<Element> {
        Single(unchecked: Observable.zip(
            source1.source, source2.source, source3.source, source4.source,
            source5.source, source6.source, source7.source, source8.source,
            resultSelector: resultSelector
        ))
    }

    /// The answers of 8 singles as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Single<E1>,
        _ source2: Single<E2>,
        _ source3: Single<E3>,
        _ source4: Single<E4>,
        _ source5: Single<E5>,
        _ source6: Single<E6>,
        _ source7: Single<E7>,
        _ source8: Single<E8>
    ) -> Single<Element> where Element == (E1, E2, E3, E4, E5, E6, E7, E8) {
        zip(source1, source2, source3, source4, source5, source6, source7, source8) { ($0, $1, $2, $3, $4, $5, $6, $7) }
    }
}

extension Single {
    /// Collects the answers of `collection`, in its order, once all have answered; fails at
    /// the first failure. An empty collection answers `[]` at once.
    ///
    /// ```swift
    /// Single.zip(ids.map(api.load))   // Single<[Item]>
    /// ```
    public static func zip<Sources: Collection>(_ collection: Sources) -> Single<[Element]>
        where Sources.Element == Single<Element> {
        Single<[Element]>(unchecked: answersInOrder(collection))
    }

    /// Combines the answers of `collection`, in its order, with `resultSelector`; fails at the
    /// first failure. An empty collection calls `resultSelector` with `[]` on each subscription.
    public static func zip<Sources: Collection, Result>(
        _ collection: Sources, resultSelector: @escaping @Sendable ([Element]) throws -> Result
    ) -> Single<Result> where Sources.Element == Single<Element> {
        Single<Result>(unchecked: answersInOrder(collection).map(resultSelector))
    }

    /// The answers tagged with their index, merged, collected, and put back in order: for
    /// singles this is `zip` without nesting one `zip` per source.
    private static func answersInOrder<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
        where Sources.Element == Single<Element> {
        let tagged = collection.enumerated().map { index, single in single.source.map { (index, $0) } }
        return Observable.merge(tagged).toArray().source.map { answers in
            answers.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
