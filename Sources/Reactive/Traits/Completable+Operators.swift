extension Completable {
    /// Side effects around the outcome; see `Observable.do`.
    public func `do`(
        onError: (@Sendable (any Error) throws -> Void)? = nil,
        afterError: (@Sendable (any Error) throws -> Void)? = nil,
        onCompleted: (@Sendable () throws -> Void)? = nil,
        afterCompleted: (@Sendable () throws -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Completable {
        Completable(unchecked: source.do(
            onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// On failure, continues with what `handler` returns; a throwing handler fails with its error.
    public func `catch`(_ handler: @escaping @Sendable (any Error) throws -> Completable) -> Completable {
        Completable(unchecked: source.catch(handler))
    }

    /// Resubscribes after a failure, up to `maxAttempts` attempts in all.
    public func retry(_ maxAttempts: Int) -> Completable {
        Completable(unchecked: source.retry(maxAttempts))
    }

    /// Resubscribes each time the sequence built from the failures emits; its completion
    /// completes and its failure fails the result.
    public func retry<Trigger: ObservableConvertibleType>(
        when notificationHandler: @escaping @Sendable (Observable<any Error>) -> Trigger
    ) -> Completable {
        Completable(unchecked: source.retry(when: notificationHandler))
    }

    /// Fails with `ReactiveError.timeout` when it does not end within `dueTime`.
    public func timeout(_ dueTime: Duration, scheduler: any SchedulerType) -> Completable {
        Completable(unchecked: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` when it does not end within `dueTime`.
    public func timeout(_ dueTime: Duration, other: Completable, scheduler: any SchedulerType) -> Completable {
        Completable(unchecked: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }

    /// Delivers the completion `dueTime` later; a failure at once.
    public func delay(_ dueTime: Duration, scheduler: any SchedulerType) -> Completable {
        Completable(unchecked: source.delay(dueTime, scheduler: scheduler))
    }

    /// Starts the work `dueTime` after the subscription.
    public func delaySubscription(_ dueTime: Duration, scheduler: any SchedulerType) -> Completable {
        Completable(unchecked: source.delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Delivers the outcome on `scheduler`.
    public func observe(on scheduler: any SchedulerType) -> Completable {
        Completable(unchecked: source.observe(on: scheduler))
    }

    /// Subscribes (and disposes) on `scheduler`.
    public func subscribe(on scheduler: any SchedulerType) -> Completable {
        Completable(unchecked: source.subscribe(on: scheduler))
    }
}

extension Completable {
    /// This work, then `second` once it completed; a failure skips `second`.
    public func concat(_ second: Completable) -> Completable {
        Completable.concat(self, second)
    }

    /// Runs the completables one after another; the first failure ends the run. The sequence
    /// is read when this is called, so it must be finite.
    public static func concat<Sources: Sequence>(_ sequence: Sources) -> Completable
        where Sources.Element == Completable {
        Completable(unchecked: Observable.concat(sequence.map(\.source)))
    }

    /// Runs the completables one after another; the first failure ends the run.
    public static func concat<Sources: Collection>(_ collection: Sources) -> Completable
        where Sources.Element == Completable {
        Completable(unchecked: Observable.concat(collection.map(\.source)))
    }

    /// Runs the completables one after another; the first failure ends the run.
    ///
    /// ```swift
    /// Completable.concat(clearCache, reload)
    /// ```
    public static func concat(_ sources: Completable...) -> Completable {
        Completable(unchecked: Observable.concat(sources.map(\.source)))
    }

    /// Runs the completables at once; completes when all complete, fails at the first failure.
    public static func zip<Sources: Collection>(_ sources: Sources) -> Completable
        where Sources.Element == Completable {
        Completable(unchecked: Observable.merge(sources.map(\.source)))
    }

    /// Runs the completables at once; completes when all complete, fails at the first failure.
    public static func zip(_ sources: [Completable]) -> Completable {
        Completable(unchecked: Observable.merge(sources.map(\.source)))
    }

    /// Runs the completables at once; completes when all complete, fails at the first failure.
    ///
    /// ```swift
    /// Completable.zip(saveUser, saveSettings)
    /// ```
    public static func zip(_ sources: Completable...) -> Completable {
        Completable(unchecked: Observable.merge(sources.map(\.source)))
    }

    /// The same as `zip`: runs the completables at once; completes when all complete, fails at
    /// the first failure.
    public static func merge<Sources: Collection>(_ sources: Sources) -> Completable
        where Sources.Element == Completable {
        Completable(unchecked: Observable.merge(sources.map(\.source)))
    }

    /// The same as `zip`: runs the completables at once; completes when all complete, fails at
    /// the first failure.
    public static func merge(_ sources: [Completable]) -> Completable {
        Completable(unchecked: Observable.merge(sources.map(\.source)))
    }

    /// The same as `zip`: runs the completables at once; completes when all complete, fails at
    /// the first failure.
    public static func merge(_ sources: Completable...) -> Completable {
        Completable(unchecked: Observable.merge(sources.map(\.source)))
    }
}
