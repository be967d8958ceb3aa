extension Maybe {
    /// Transforms the element; a throw fails the maybe.
    public func map<Result>(_ transform: @escaping @Sendable (Element) throws -> Result) -> Maybe<Result> {
        Maybe<Result>(unchecked: source.map(transform))
    }

    /// Transforms the element; `nil` completes empty.
    public func compactMap<Result>(_ transform: @escaping @Sendable (Element) throws -> Result?) -> Maybe<Result> {
        Maybe<Result>(unchecked: source.compactMap(transform))
    }

    /// Keeps the element when `predicate` holds.
    public func filter(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(unchecked: source.filter(predicate))
    }

    /// Continues with the maybe that `selector` returns.
    public func flatMap<Result>(_ selector: @escaping @Sendable (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe<Result>(unchecked: source.flatMap(selector))
    }

    /// On failure, continues with what `handler` returns; a throwing handler fails with its error.
    public func `catch`(_ handler: @escaping @Sendable (any Error) throws -> Maybe<Element>) -> Maybe<Element> {
        Maybe(unchecked: source.catch(handler))
    }

    /// On failure, succeeds with `element`.
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        Maybe(unchecked: source.catchAndReturn(element))
    }

    /// Resubscribes after a failure, up to `maxAttempts` attempts in all.
    public func retry(_ maxAttempts: Int) -> Maybe<Element> {
        Maybe(unchecked: source.retry(maxAttempts))
    }

    /// Resubscribes each time the sequence built from the failures emits; its completion
    /// completes and its failure fails the result.
    public func retry<Trigger: ObservableConvertibleType>(
        when notificationHandler: @escaping @Sendable (Observable<any Error>) -> Trigger
    ) -> Maybe<Element> {
        Maybe(unchecked: source.retry(when: notificationHandler))
    }

    /// Side effects around the outcome; see `Observable.do` (RxSwift's labels: `onNext` is the success).
    public func `do`(
        onNext: (@Sendable (Element) throws -> Void)? = nil,
        afterNext: (@Sendable (Element) throws -> Void)? = nil,
        onError: (@Sendable (any Error) throws -> Void)? = nil,
        afterError: (@Sendable (any Error) throws -> Void)? = nil,
        onCompleted: (@Sendable () throws -> Void)? = nil,
        afterCompleted: (@Sendable () throws -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Maybe<Element> {
        Maybe(unchecked: source.do(
            onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// A single that fails with `ReactiveError.noElements` when this maybe is empty.
    public func asSingle() -> Single<Element> { source.asSingle() }

    /// A single with the element, or with `default` when this maybe is empty.
    public func ifEmpty(default element: Element) -> Single<Element> {
        ifEmpty(switchTo: Single.just(element))
    }

    /// This maybe, or `other` (subscribed at the empty completion) when it is empty.
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(unchecked: source.toArray().source.flatMap { $0.first.map(Observable.just) ?? other.source })
    }

    /// A single with the element, or the answer of `other` (subscribed at the empty
    /// completion) when this maybe is empty.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        Single(unchecked: source.toArray().source.flatMap { $0.first.map(Observable.just) ?? other.source })
    }
}

extension Maybe where Element: Sendable {
    /// Fails with `ReactiveError.timeout` when no outcome comes within `dueTime`.
    public func timeout(_ dueTime: Duration, scheduler: any SchedulerType) -> Maybe<Element> {
        Maybe(unchecked: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` when no outcome comes within `dueTime`.
    public func timeout(_ dueTime: Duration, other: Maybe<Element>, scheduler: any SchedulerType) -> Maybe<Element> {
        Maybe(unchecked: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }

    /// Delivers the success or the empty completion `dueTime` later; a failure at once.
    public func delay(_ dueTime: Duration, scheduler: any SchedulerType) -> Maybe<Element> {
        Maybe(unchecked: source.delay(dueTime, scheduler: scheduler))
    }

    /// Subscribes to the source `dueTime` after the subscription.
    public func delaySubscription(_ dueTime: Duration, scheduler: any SchedulerType) -> Maybe<Element> {
        Maybe(unchecked: source.delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Delivers the outcome on `scheduler`.
    public func observe(on scheduler: any SchedulerType) -> Maybe<Element> {
        Maybe(unchecked: source.observe(on: scheduler))
    }

    /// Subscribes (and disposes) on `scheduler`.
    public func subscribe(on scheduler: any SchedulerType) -> Maybe<Element> {
        Maybe(unchecked: source.subscribe(on: scheduler))
    }
}
