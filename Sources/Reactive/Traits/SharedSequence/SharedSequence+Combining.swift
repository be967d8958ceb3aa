// RxCocoa's `combineLatest` and `zip` of `Driver`s or `Signal`s of one strategy, for the
// arities `Observable` has; the result is shared again.
extension SharedSequence {
    /// The latest elements of both, combined whenever either emits once both have.
    ///
    /// ```swift
    /// Driver.combineLatest(name, age) { "\($0), \($1)" }
    /// ```
    public static func combineLatest<E1, E2>(
        _ source1: SharedSequence<SharingStrategy, E1>,
        _ source2: SharedSequence<SharingStrategy, E2>,
        resultSelector: @escaping @Sendable (E1, E2) -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.combineLatest(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// The latest elements of both, as tuples.
    public static func combineLatest<E1, E2>(
        _ source1: SharedSequence<SharingStrategy, E1>,
        _ source2: SharedSequence<SharingStrategy, E2>
    ) -> SharedSequence<SharingStrategy, Element> where Element == (E1, E2) {
        combineLatest(source1, source2) { ($0, $1) }
    }

    /// The latest elements of the three, combined whenever one emits once all have.
    public static func combineLatest<E1, E2, E3>(
        _ source1: SharedSequence<SharingStrategy, E1>,
        _ source2: SharedSequence<SharingStrategy, E2>,
        _ source3: SharedSequence<SharingStrategy, E3>,
        resultSelector: @escaping @Sendable (E1, E2, E3) -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.combineLatest(
            source1.source, source2.source, source3.source, resultSelector: resultSelector
        ))
    }

    /// The latest elements of the three, as tuples.
    public static func combineLatest<E1, E2, E3>(
        _ source1: SharedSequence<SharingStrategy, E1>,
        _ source2: SharedSequence<SharingStrategy, E2>,
        _ source3: SharedSequence<SharingStrategy, E3>
    ) -> SharedSequence<SharingStrategy, Element> where Element == (E1, E2, E3) {
        combineLatest(source1, source2, source3) { ($0, $1, $2) }
    }

    /// The elements of both paired by index and combined.
    public static func zip<E1, E2>(
        _ source1: SharedSequence<SharingStrategy, E1>,
        _ source2: SharedSequence<SharingStrategy, E2>,
        resultSelector: @escaping @Sendable (E1, E2) -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// The elements of both paired by index, as tuples.
    public static func zip<E1, E2>(
        _ source1: SharedSequence<SharingStrategy, E1>,
        _ source2: SharedSequence<SharingStrategy, E2>
    ) -> SharedSequence<SharingStrategy, Element> where Element == (E1, E2) {
        zip(source1, source2) { ($0, $1) }
    }

    /// The elements of the three matched by index and combined.
    public static func zip<E1, E2, E3>(
        _ source1: SharedSequence<SharingStrategy, E1>,
        _ source2: SharedSequence<SharingStrategy, E2>,
        _ source3: SharedSequence<SharingStrategy, E3>,
        resultSelector: @escaping @Sendable (E1, E2, E3) -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(source1.source, source2.source, source3.source, resultSelector: resultSelector))
    }

    /// The elements of the three matched by index, as tuples.
    public static func zip<E1, E2, E3>(
        _ source1: SharedSequence<SharingStrategy, E1>,
        _ source2: SharedSequence<SharingStrategy, E2>,
        _ source3: SharedSequence<SharingStrategy, E3>
    ) -> SharedSequence<SharingStrategy, Element> where Element == (E1, E2, E3) {
        zip(source1, source2, source3) { ($0, $1, $2) }
    }
}
