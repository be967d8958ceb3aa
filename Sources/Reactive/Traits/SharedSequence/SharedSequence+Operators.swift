// RxCocoa's operators on `Driver` and `Signal`: each takes non-failing closures, keeps the
// strategy, and shares its result again. Time-based ones run on the strategy's scheduler.
extension SharedSequenceConvertibleType {
    /// Transforms each element; the result keeps the trait's guarantees (main thread, shared, no
    /// errors).
    public func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) -> Result
    ) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().map(transform))
    }

    /// Transforms each element and drops the `nil` results.
    public func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) -> Result?
    ) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().compactMap(transform))
    }

    /// Keeps the elements for which `predicate` holds.
    public func filter(_ predicate: @escaping @Sendable (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().filter(predicate))
    }

    /// Follows only the shared sequence `selector` returns for the newest element.
    ///
    /// ```swift
    /// query.flatMapLatest { text in api.search(text).asDriver(onErrorJustReturn: []) }
    /// ```
    public func flatMapLatest<Sharing, Result>(
        _ selector: @escaping @Sendable (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapLatest(selector))
    }

    /// Merges the shared sequences `selector` returns for each element.
    public func flatMap<Sharing, Result>(
        _ selector: @escaping @Sendable (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMap(selector))
    }

    /// Runs the shared sequences `selector` returns for each element one after another, in order.
    public func concatMap<Sharing, Result>(
        _ selector: @escaping @Sendable (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().concatMap(selector))
    }

    /// Drops elements that `comparer` says equal the one before.
    public func distinctUntilChanged(
        _ comparer: @escaping @Sendable (Element, Element) -> Bool
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(comparer))
    }

    /// Drops elements whose key equals the previous element's key.
    public func distinctUntilChanged<Key: Equatable & SendableMetatype>(
        _ keySelector: @escaping @Sendable (Element) -> Key
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector))
    }

    /// Side effects around the events; see `Observable.do`.
    public func `do`(
        onNext: (@Sendable (Element) -> Void)? = nil,
        afterNext: (@Sendable (Element) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        afterCompleted: (@Sendable () -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().do(
            onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// Emits each intermediate result of folding the elements into `seed`.
    public func scan<Accumulate: Sendable>(
        _ seed: Accumulate, accumulator: @escaping @Sendable (Accumulate, Element) -> Accumulate
    ) -> SharedSequence<SharingStrategy, Accumulate> {
        SharedSequence(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Emits `elements` first.
    public func startWith(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.from(elements).concat(asObservable()))
    }

    /// Skips the first `count` elements.
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().skip(count))
    }

    /// Emits an element only after `dueTime` passed without another, on the strategy's scheduler.
    public func debounce(_ dueTime: Duration) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// At most one element per `dueTime`, on the strategy's scheduler; see `Observable.throttle`.
    public func throttle(_ dueTime: Duration, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Shifts every element and the completion by `dueTime`, on the strategy's scheduler.
    public func delay(_ dueTime: Duration) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
    }
}

extension SharedSequenceConvertibleType where Element: Equatable {
    /// Drops elements equal to the one before.
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged())
    }
}

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType,
    Element.SharingStrategy == SharingStrategy {
    /// Follows only the newest inner shared sequence.
    public func switchLatest() -> SharedSequence<SharingStrategy, Element.Element> {
        SharedSequence(asObservable().flatMapLatest { $0.asObservable() })
    }
}

extension SharedSequence {
    /// Merges the elements of `sources` as they come.
    public static func merge(
        _ sources: SharedSequence<SharingStrategy, Element>...
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of `sources` as they come.
    public static func merge<Sources: Collection>(_ sources: Sources) -> SharedSequence<SharingStrategy, Element>
        where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
    }
}
