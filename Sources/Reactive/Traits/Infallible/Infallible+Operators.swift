extension InfallibleType {
    /// Transforms each element.
    public func map<Result>(_ transform: @escaping @Sendable (Element) -> Result) -> Infallible<Result> {
        Infallible(asObservable().map(transform))
    }

    /// Transforms each element and drops the `nil` results.
    public func compactMap<Result>(_ transform: @escaping @Sendable (Element) -> Result?) -> Infallible<Result> {
        Infallible(asObservable().compactMap(transform))
    }

    /// Keeps the elements `predicate` accepts.
    public func filter(_ predicate: @escaping @Sendable (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().filter(predicate))
    }

    /// Maps each element to an infallible and merges their elements as they come.
    public func flatMap<Source: InfallibleType>(
        _ selector: @escaping @Sendable (Element) -> Source
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMap(selector))
    }

    /// Maps each element to an infallible and follows only the latest one.
    public func flatMapLatest<Source: InfallibleType>(
        _ selector: @escaping @Sendable (Element) -> Source
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapLatest(selector))
    }

    /// Maps an element to an infallible only while no earlier one runs; others are dropped.
    public func flatMapFirst<Source: InfallibleType>(
        _ selector: @escaping @Sendable (Element) -> Source
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapFirst(selector))
    }

    /// Maps each element to an infallible and runs them one after another.
    public func concatMap<Source: InfallibleType>(
        _ selector: @escaping @Sendable (Element) -> Source
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().concatMap(selector))
    }

    /// Emits each running result of `accumulator`, starting from `seed`.
    public func scan<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping @Sendable (Accumulate, Element) -> Accumulate
    ) -> Infallible<Accumulate> {
        Infallible(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Emits `elements` first, then this sequence.
    public func startWith(_ elements: Element...) -> Infallible<Element> {
        Infallible(Observable.from(elements).concat(asObservable()))
    }

    /// At most the first `count` elements, then completion.
    public func take(_ count: Int) -> Infallible<Element> { Infallible(asObservable().take(count)) }

    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> Infallible<Element> { Infallible(asObservable().skip(count)) }

    /// Elements while `predicate` holds, then completion.
    public func take(while predicate: @escaping @Sendable (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().take(while: predicate))
    }

    /// Drops elements while `predicate` holds, then emits the rest.
    public func skip(while predicate: @escaping @Sendable (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().skip(while: predicate))
    }

    /// Elements until `other` emits one (an error of `other` is not possible here).
    public func take<Other: InfallibleType>(until other: Other) -> Infallible<Element> {
        Infallible(asObservable().take(until: other))
    }

    /// Drops elements until `other` emits one.
    public func skip<Other: InfallibleType>(until other: Other) -> Infallible<Element> {
        Infallible(asObservable().skip(until: other))
    }

    /// Drops an element equal to the one before it, by `comparer`.
    public func distinctUntilChanged(
        _ comparer: @escaping @Sendable (Element, Element) -> Bool
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(comparer))
    }

    /// Runs side effects for the events, as `Observable.do` does.
    public func `do`(
        onNext: (@Sendable (Element) -> Void)? = nil,
        afterNext: (@Sendable (Element) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        afterCompleted: (@Sendable () -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Infallible<Element> {
        Infallible(asObservable().do(
            onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// Each element with the latest element of `second` (dropped until `second` has one).
    public func withLatestFrom<Second: InfallibleType, Result>(
        _ second: Second, resultSelector: @escaping @Sendable (Element, Second.Element) -> Result
    ) -> Infallible<Result> {
        Infallible(asObservable().withLatestFrom(second, resultSelector: resultSelector))
    }

    /// The latest element of `second` at each element of this sequence.
    public func withLatestFrom<Second: InfallibleType>(_ second: Second) -> Infallible<Second.Element> {
        Infallible(asObservable().withLatestFrom(second))
    }

    /// Each element with its index.
    public func enumerated() -> Infallible<(index: Int, element: Element)> {
        Infallible(asObservable().enumerated())
    }
}

extension InfallibleType where Element: Equatable {
    /// Drops an element equal to the one before it.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged())
    }
}

extension InfallibleType where Element: Sendable {
    /// Shares one subscription among subscribers, replaying the last `replay` elements.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(asObservable().share(replay: replay, scope: scope))
    }

    /// Emits an element once `dueTime` passed without a newer one.
    public func debounce(_ dueTime: Duration, scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// At most one element per `dueTime`; with `latest`, the last one of a window follows it.
    public func throttle(_ dueTime: Duration, latest: Bool = true, scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// Shifts every event by `dueTime` on `scheduler`.
    public func delay(_ dueTime: Duration, scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().delay(dueTime, scheduler: scheduler))
    }

    /// Delivers every event on `scheduler`.
    public func observe(on scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().observe(on: scheduler))
    }

    /// Subscribes to this sequence on `scheduler`.
    public func subscribe(on scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().subscribe(on: scheduler))
    }
}
