extension Infallible {
    /// The elements of `sources` one sequence after another.
    public static func concat<Sources: Sequence>(_ sources: Sources) -> Infallible<Element>
        where Sources.Element == Infallible<Element> {
        Infallible(Observable.concat(sources.map { $0.asObservable() }))
    }

    /// The elements of `sources` as they come.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// The elements of `sources` as they come.
    public static func merge(_ sources: [Infallible<Element>]) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Pairs the elements of two infallibles by index through `resultSelector`.
    public static func zip<E1, E2>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>,
        resultSelector: @escaping @Sendable (E1, E2) -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.zip(source1, source2, resultSelector: resultSelector))
    }

    /// Combines the latest elements of two infallibles through `resultSelector`.
    public static func combineLatest<E1, E2>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>,
        resultSelector: @escaping @Sendable (E1, E2) -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1, source2, resultSelector: resultSelector))
    }

    /// Pairs the elements of three infallibles by index through `resultSelector`.
    public static func zip<E1, E2, E3>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>,
        resultSelector: @escaping @Sendable (E1, E2, E3) -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.zip(source1, source2, source3, resultSelector: resultSelector))
    }

    /// Combines the latest elements of three infallibles through `resultSelector`.
    public static func combineLatest<E1, E2, E3>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>,
        resultSelector: @escaping @Sendable (E1, E2, E3) -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1, source2, source3, resultSelector: resultSelector))
    }
}

extension Infallible {
    /// Pairs the elements of two infallibles by index.
    public static func zip<E1, E2>(_ source1: Infallible<E1>, _ source2: Infallible<E2>) -> Infallible<(E1, E2)>
        where Element == (E1, E2) {
        zip(source1, source2) { ($0, $1) }
    }

    /// Combines the latest elements of two infallibles.
    public static func combineLatest<E1, E2>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>
    ) -> Infallible<(E1, E2)> where Element == (E1, E2) {
        combineLatest(source1, source2) { ($0, $1) }
    }
}

extension InfallibleType {
    /// This sequence's elements, then `second`'s.
    public func concat<Source: InfallibleType>(_ second: Source) -> Infallible<Element> where Source.Element == Element {
        Infallible(asObservable().concat(second))
    }
}
