// The `zip` family of `Maybe` for 2 to 8 sources, each `Observable.zip` over the sources. They
// are written out per arity, as RxSwift's overload set is: with one parameter-pack overload the
// type checker gives up on a closure like `{ $0 + $1 + ... + $7 }` over eight sources.
extension Maybe {
    /// Combines the elements of 2 maybes with `resultSelector`; ends and fails as `Observable.zip` does.
    public static func zip<E1, E2>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        resultSelector: @escaping @Sendable (E1, E2) throws -> Element
    ) -> Maybe<Element> {
        Maybe(unchecked: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// The elements of 2 maybes as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>
    ) -> Maybe<Element> where Element == (E1, E2) {
        zip(source1, source2) { ($0, $1) }
    }

    /// Combines the elements of 3 maybes with `resultSelector`; ends and fails as `Observable.zip` does.
    public static func zip<E1, E2, E3>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        resultSelector: @escaping @Sendable (E1, E2, E3) throws -> Element
    ) -> Maybe<Element> {
        Maybe(unchecked: Observable.zip(source1.source, source2.source, source3.source, resultSelector: resultSelector))
    }

    /// The elements of 3 maybes as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>
    ) -> Maybe<Element> where Element == (E1, E2, E3) {
        zip(source1, source2, source3) { ($0, $1, $2) }
    }

    /// Combines the elements of 4 maybes with `resultSelector`; ends and fails as `Observable.zip` does.
    public static func zip<E1, E2, E3, E4>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4) throws -> Element
    ) -> Maybe<Element> {
        Maybe(unchecked: Observable.zip(
            source1.source, source2.source,
            source3.source, source4.source,
            resultSelector: resultSelector
        ))
    }

    /// The elements of 4 maybes as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>
    ) -> Maybe<Element> where Element == (E1, E2, E3, E4) {
        zip(source1, source2, source3, source4) { ($0, $1, $2, $3) }
    }

    /// Combines the elements of 5 maybes with `resultSelector`; ends and fails as `Observable.zip` does.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>,
        _ source5: Maybe<E5>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5) throws -> Element
    ) -> Maybe<Element> {
        Maybe(unchecked: Observable.zip(
            source1.source, source2.source, source3.source,
            source4.source, source5.source,
            resultSelector: resultSelector
        ))
    }

    /// The elements of 5 maybes as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>,
        _ source5: Maybe<E5>
    ) -> Maybe<Element> where Element == (E1, E2, E3, E4, E5) {
        zip(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
    }

    /// Combines the elements of 6 maybes with `resultSelector`; ends and fails as `Observable.zip` does.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>,
        _ source5: Maybe<E5>,
        _ source6: Maybe<E6>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> Maybe<Element> {
        Maybe(unchecked: Observable.zip(
            source1.source, source2.source, source3.source,
            source4.source, source5.source, source6.source,
            resultSelector: resultSelector
        ))
    }

    /// The elements of 6 maybes as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>,
        _ source5: Maybe<E5>,
        _ source6: Maybe<E6>
    ) -> Maybe<Element> where Element == (E1, E2, E3, E4, E5, E6) {
        zip(source1, source2, source3, source4, source5, source6) { ($0, $1, $2, $3, $4, $5) }
    }

    /// Combines the elements of 7 maybes with `resultSelector`; ends and fails as `Observable.zip` does.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>,
        _ source5: Maybe<E5>,
        _ source6: Maybe<E6>,
        _ source7: Maybe<E7>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7) throws -> Element
    ) -> Maybe<Element> {
        Maybe(unchecked: Observable.zip(
            source1.source, source2.source, source3.source, source4.source,
            source5.source, source6.source, source7.source,
            resultSelector: resultSelector
        ))
    }

    /// The elements of 7 maybes as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>,
        _ source5: Maybe<E5>,
        _ source6: Maybe<E6>,
        _ source7: Maybe<E7>
    ) -> Maybe<Element> where Element == (E1, E2, E3, E4, E5, E6, E7) {
        zip(source1, source2, source3, source4, source5, source6, source7) { ($0, $1, $2, $3, $4, $5, $6) }
    }

    /// Combines the elements of 8 maybes with `resultSelector`; ends and fails as `Observable.zip` does.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>,
        _ source5: Maybe<E5>,
        _ source6: Maybe<E6>,
        _ source7: Maybe<E7>,
        _ source8: Maybe<E8>,
        resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
    ) -> Maybe<Element> {
        Maybe(unchecked: Observable.zip(
            source1.source, source2.source, source3.source, source4.source,
            source5.source, source6.source, source7.source, source8.source,
            resultSelector: resultSelector
        ))
    }

    /// The elements of 8 maybes as a tuple; see the `resultSelector:` form.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Maybe<E1>,
        _ source2: Maybe<E2>,
        _ source3: Maybe<E3>,
        _ source4: Maybe<E4>,
        _ source5: Maybe<E5>,
        _ source6: Maybe<E6>,
        _ source7: Maybe<E7>,
        _ source8: Maybe<E8>
    ) -> Maybe<Element> where Element == (E1, E2, E3, E4, E5, E6, E7, E8) {
        zip(source1, source2, source3, source4, source5, source6, source7, source8) { ($0, $1, $2, $3, $4, $5, $6, $7) }
    }
}
