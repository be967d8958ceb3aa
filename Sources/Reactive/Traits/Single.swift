import Synchronization

/// What a `Single` delivers: one success or one failure.
public typealias SingleEvent<Element> = Result<Element, any Error>

/// A sequence of exactly one element or one error: a request, a computation.
///
/// ```swift
/// let answer = Single<Int>.create { observer in
///     observer(.success(42))
///     return Disposables.create()
/// }
/// answer.subscribe(onSuccess: { print($0) })
/// ```
public struct Single<Element>: ObservableConvertibleType {
    @usableFromInline let source: Observable<Element>

    /// The observer closure that `create` hands to its subscribe function.
    public typealias SingleObserver = @Sendable (SingleEvent<Element>) -> Void

    /// Wraps an observable already known to follow the Single grammar.
    @inlinable
    init(unchecked source: Observable<Element>) {
        self.source = source
    }

    /// A single whose subscriptions call `subscribe`; only the first event counts.
    @inlinable
    public static func create(
        subscribe: @escaping @Sendable (@escaping @Sendable (SingleEvent<Element>) -> Void) -> any Disposable
    ) -> Single<Element> {
        // `Observable.create`'s wiring without its `AnyObserver`: the closure handed to
        // `subscribe` feeds the sink directly (one object less per subscription and per single).
        Single(unchecked: Observable { observer in
            let sink = CreateSink(downstream: observer)
            sink.upstream.set(subscribe { result in
                switch result {
                case .success(let element):
                    sink.on(.next(element))
                    sink.on(.completed)
                case .failure(let error):
                    sink.on(.error(error))
                }
            })
            return sink
        })
    }

    /// A single whose subscriptions hand their observer to `subscribe` as is, with no sink between:
    /// for a producer in this package that keeps the grammar itself (`.next` then `.completed`, or
    /// `.error`, once; nothing after its returned disposable is disposed), as `NetworkProvider`'s
    /// request run does. `create` guards a caller's closure instead.
    @inlinable
    package static func keepingGrammar(
        _ subscribe: @escaping @Sendable (AnyObserver<Element>) -> any Disposable
    ) -> Single<Element> {
        Single(unchecked: Observable(subscribe))
    }

    /// Succeeds with `element` at once.
    @inlinable
    public static func just(_ element: Element) -> Single<Element> {
        Single(unchecked: .just(element))
    }

    /// Fails with `error` at once.
    public static func error(_ error: any Error) -> Single<Element> {
        Single(unchecked: .error(error))
    }

    /// Neither succeeds nor fails; only disposing ends it (useful to test timeouts).
    public static func never() -> Single<Element> {
        Single(unchecked: .never())
    }

    /// Calls `factory` on each subscription; a throw fails the single.
    public static func deferred(_ factory: @escaping @Sendable () throws -> Single<Element>) -> Single<Element> {
        Single(unchecked: .deferred { try factory().source })
    }

    /// This single as an observable: one `.next` then `.completed`, or `.error`.
    @inlinable
    public func asObservable() -> Observable<Element> { source }

    /// This single as a `Maybe`.
    public func asMaybe() -> Maybe<Element> { Maybe(unchecked: source) }

    /// Subscribes with closures.
    ///
    /// `onDisposed` runs once, after the answer or on disposal.
    @inlinable
    @discardableResult
    public func subscribe(
        onSuccess: (@Sendable (Element) -> Void)? = nil,
        onFailure: (@Sendable (any Error) -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        source.subscribe(onNext: onSuccess, onError: onFailure, onCompleted: nil, onDisposed: onDisposed)
    }

    /// Subscribes with a closure taking the result.
    @inlinable
    @discardableResult
    public func subscribe(_ observer: @escaping @Sendable (SingleEvent<Element>) -> Void) -> any Disposable {
        source.subscribe(onNext: { observer(.success($0)) }, onError: { observer(.failure($0)) })
    }

    /// Subscribes with closures that get `object`, held weakly: once it is gone they are not called.
    @discardableResult
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        onSuccess: (@Sendable (Object, Element) -> Void)? = nil,
        onFailure: (@Sendable (Object, any Error) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        subscribe(
            onSuccess: { [weak object] element in if let object { onSuccess?(object, element) } },
            onFailure: { [weak object] error in if let object { onFailure?(object, error) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }
}

extension Single {
    /// Transforms the element; a throw fails the single.
    @inlinable
    public func map<Result>(_ transform: @escaping @Sendable (Element) throws -> Result) -> Single<Result> {
        Single<Result>(unchecked: source.map(transform))
    }

    /// Transforms the element; `nil` completes the resulting `Maybe` empty.
    public func compactMap<Result>(_ transform: @escaping @Sendable (Element) throws -> Result?) -> Maybe<Result> {
        Maybe<Result>(unchecked: source.compactMap(transform))
    }

    /// Keeps the element when `predicate` holds.
    public func filter(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(unchecked: source.filter(predicate))
    }

    /// Continues with the single that `selector` returns for the element.
    public func flatMap<Result>(_ selector: @escaping @Sendable (Element) throws -> Single<Result>) -> Single<Result> {
        Single<Result>(unchecked: source.flatMap(selector))
    }

    /// Continues with the maybe that `selector` returns for the element.
    public func flatMapMaybe<Result>(_ selector: @escaping @Sendable (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe<Result>(unchecked: source.flatMap(selector))
    }

    /// Continues with the completable that `selector` returns for the element.
    public func flatMapCompletable(_ selector: @escaping @Sendable (Element) throws -> Completable) -> Completable {
        Completable(unchecked: source.flatMap(selector))
    }

    /// This single as a `Completable`: completes at the success, ignoring the element.
    public func asCompletable() -> Completable { source.ignoreElements() }

    /// On failure, continues with the single `handler` returns; a throwing handler fails with its error.
    @inlinable
    public func `catch`(_ handler: @escaping @Sendable (any Error) throws -> Single<Element>) -> Single<Element> {
        Single(unchecked: source.catch(handler))
    }

    /// On failure, succeeds with `element`.
    @inlinable
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(unchecked: source.catchAndReturn(element))
    }

    /// Resubscribes after a failure, up to `maxAttempts` attempts in all.
    public func retry(_ maxAttempts: Int) -> Single<Element> {
        Single(unchecked: source.retry(maxAttempts))
    }

    /// Resubscribes each time the sequence built from the failures emits.
    public func retry<Trigger: ObservableConvertibleType>(
        when notificationHandler: @escaping @Sendable (Observable<any Error>) -> Trigger
    ) -> Single<Element> {
        Single(unchecked: source.retry(when: notificationHandler))
    }

    /// Side effects around the answer; see `Observable.do`.
    @inlinable
    public func `do`(
        onSuccess: (@Sendable (Element) throws -> Void)? = nil,
        afterSuccess: (@Sendable (Element) throws -> Void)? = nil,
        onError: (@Sendable (any Error) throws -> Void)? = nil,
        afterError: (@Sendable (any Error) throws -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Single<Element> {
        Single(unchecked: source.do(
            onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// Shares one subscription among concurrent subscribers; see `Observable.share(replay:)`.
    public func share(replay: Int = 1) -> Single<Element> {
        Single(unchecked: source.share(replay: replay))
    }
}

extension Single where Element: Sendable {
    /// Fails with `ReactiveError.timeout` when no answer comes within `dueTime`.
    @inlinable
    public func timeout(_ dueTime: Duration, scheduler: any SchedulerType) -> Single<Element> {
        timeoutOnce(dueTime, scheduler: scheduler)
    }

    /// Switches to `other` when no answer comes within `dueTime`.
    public func timeout(_ dueTime: Duration, other: Single<Element>, scheduler: any SchedulerType) -> Single<Element> {
        Single(unchecked: source.timeout(dueTime, other: other, scheduler: scheduler))
    }

    /// Delivers the success `dueTime` later; a failure at once.
    public func delay(_ dueTime: Duration, scheduler: any SchedulerType) -> Single<Element> {
        Single(unchecked: source.delay(dueTime, scheduler: scheduler))
    }

    /// Delivers the answer on `scheduler`.
    public func observe(on scheduler: any SchedulerType) -> Single<Element> {
        Single(unchecked: source.observe(on: scheduler))
    }

    /// Subscribes on `scheduler`.
    public func subscribe(on scheduler: any SchedulerType) -> Single<Element> {
        Single(unchecked: source.subscribe(on: scheduler))
    }

    /// Subscribes to the source `dueTime` after the subscription.
    public func delaySubscription(_ dueTime: Duration, scheduler: any SchedulerType) -> Single<Element> {
        Single(unchecked: source.delaySubscription(dueTime, scheduler: scheduler))
    }
}
