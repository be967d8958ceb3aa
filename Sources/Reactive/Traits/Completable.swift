/// What a `Completable` delivers: completion or failure.
public enum CompletableEvent: Sendable {
    /// The work failed.
    case error(any Error)
    /// The work finished.
    case completed
}

/// Work without a result: it completes or fails.
///
/// ```swift
/// let save = Completable.create { observer in
///     observer(.completed)
///     return Disposables.create()
/// }
/// ```
public struct Completable: ObservableConvertibleType {
    let source: Observable<Never>

    init(unchecked source: Observable<Never>) {
        self.source = source
    }

    /// A completable whose subscriptions call `subscribe`; only the first event counts.
    public static func create(
        subscribe: @escaping @Sendable (@escaping @Sendable (CompletableEvent) -> Void) -> any Disposable
    ) -> Completable {
        Completable(unchecked: Observable.create { observer in
            subscribe { event in
                switch event {
                case .completed: observer.on(.completed)
                case .error(let error): observer.on(.error(error))
                }
            }
        })
    }

    /// Completes at once.
    public static func empty() -> Completable { Completable(unchecked: .empty()) }
    /// Fails at once.
    public static func error(_ error: any Error) -> Completable { Completable(unchecked: .error(error)) }
    /// Never ends.
    public static func never() -> Completable { Completable(unchecked: .never()) }

    /// This completable as an observable that never emits elements.
    public func asObservable() -> Observable<Never> { source }

    /// Subscribes with closures.
    @discardableResult
    public func subscribe(
        onCompleted: (@Sendable () -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        source.subscribe(onNext: nil, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Runs `next` after this completes.
    public func andThen(_ next: Completable) -> Completable {
        Completable(unchecked: Observable.concat([source, next.source]))
    }

    /// Answers with `next` after this completes.
    public func andThen<Element>(_ next: Single<Element>) -> Single<Element> {
        Single(unchecked: Observable.concat([source.map { _ -> Element in }, next.source]))
    }

    /// On failure, continues with what `handler` returns.
    public func `catch`(_ handler: @escaping @Sendable (any Error) throws -> Completable) -> Completable {
        Completable(unchecked: source.catch(handler))
    }

    /// Resubscribes after a failure, up to `maxAttempts` attempts in all.
    public func retry(_ maxAttempts: Int) -> Completable {
        Completable(unchecked: source.retry(maxAttempts))
    }

    /// Fails with `ReactiveError.timeout` when it does not end within `dueTime`.
    public func timeout(_ dueTime: Duration, scheduler: any SchedulerType) -> Completable {
        Completable(unchecked: source.timeout(dueTime, scheduler: scheduler))
    }
}

extension ObservableType {
    /// Ignores the elements; completes or fails with the source.
    public func asCompletable() -> Completable {
        Completable(unchecked: asObservable().compactMap { _ -> Never? in nil })
    }
}
