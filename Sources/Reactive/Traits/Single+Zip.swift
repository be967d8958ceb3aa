// `Single.zip` of a collection; the forms for 2 to 8 separate singles are generated into
// Single+ZipArities.swift.
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
