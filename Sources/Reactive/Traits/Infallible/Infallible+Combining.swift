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
}

extension InfallibleType {
    /// This sequence's elements, then `second`'s.
    public func concat<Source: InfallibleType>(_ second: Source) -> Infallible<Element> where Source.Element == Element {
        Infallible(asObservable().concat(second))
    }
}
