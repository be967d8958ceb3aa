/// What a `Completable` delivers: completion or failure.
public enum CompletableEvent: Sendable {
    /// The work failed.
    case error(any Error)
    /// The work finished.
    case completed
}

extension CompletableEvent: Equatable {
    /// RxTest's equality: errors compare as `Event`'s do (the same `Equatable` error, or else
    /// the same `String(reflecting:)` description).
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.error(let a), .error(let b)): return errorsAreEqual(a, b)
        case (.completed, .completed): return true
        default: return false
        }
    }
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

    /// The observer closure that `create` hands to its subscribe function.
    public typealias CompletableObserver = @Sendable (CompletableEvent) -> Void

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

    /// Completes at subscription.
    public static func empty() -> Completable { Completable(unchecked: .empty()) }
    /// Fails at once.
    public static func error(_ error: any Error) -> Completable { Completable(unchecked: .error(error)) }
    /// Never ends.
    public static func never() -> Completable { Completable(unchecked: .never()) }

    /// Calls `factory` on each subscription; a throw fails the completable.
    public static func deferred(_ factory: @escaping @Sendable () throws -> Completable) -> Completable {
        Completable(unchecked: .deferred { try factory().source })
    }

    /// This completable as an observable that never emits elements.
    public func asObservable() -> Observable<Never> { source }

    /// Subscribes with closures.
    ///
    /// `onDisposed` runs once, after the outcome or on disposal.
    @discardableResult
    public func subscribe(
        onCompleted: (@Sendable () -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        source.subscribe(onNext: nil, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with a closure taking the outcome.
    ///
    /// ```swift
    /// save.subscribe { event in if case .error(let error) = event { report(error) } }
    /// ```
    @discardableResult
    public func subscribe(_ observer: @escaping @Sendable (CompletableEvent) -> Void) -> any Disposable {
        source.subscribe(onError: { observer(.error($0)) }, onCompleted: { observer(.completed) })
    }

    /// Subscribes with closures that get `object`, held weakly: once it is gone they are not called.
    @discardableResult
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        onCompleted: (@Sendable (Object) -> Void)? = nil,
        onError: (@Sendable (Object, any Error) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        subscribe(
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }
}

extension ObservableType where Element == Never {
    /// This sequence, which has no elements, as a `Completable` (RxSwift offers it only here:
    /// drop the elements of any other sequence with `ignoreElements()`).
    public func asCompletable() -> Completable {
        Completable(unchecked: asObservable())
    }
}

extension ObservableType {
    /// Ignores the elements; completes or fails with the source.
    func completableIgnoringElements() -> Completable {
        Completable(unchecked: asObservable().compactMap { _ -> Never? in nil })
    }
}
