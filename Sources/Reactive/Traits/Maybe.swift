import Synchronization

/// What a `Maybe` delivers: a success, an empty completion, or a failure.
public enum MaybeEvent<Element> {
    /// One element.
    case success(Element)
    /// The sequence failed.
    case error(any Error)
    /// No element.
    case completed
}

extension MaybeEvent: Sendable where Element: Sendable {}

extension MaybeEvent: Equatable where Element: Equatable {
    /// RxTest's equality: successes compare their elements; errors compare as `Event`'s do (the
    /// same `Equatable` error, or else the same `String(reflecting:)` description).
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.success(let a), .success(let b)): return a == b
        case (.error(let a), .error(let b)): return errorsAreEqual(a, b)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

/// A sequence of at most one element: one success, an empty completion, or one error.
///
/// ```swift
/// cache.lookup(key).subscribe(onSuccess: { print($0) }, onCompleted: { print("miss") })
/// ```
public struct Maybe<Element>: ObservableConvertibleType {
    let source: Observable<Element>

    /// The observer closure that `create` hands to its subscribe function.
    public typealias MaybeObserver = @Sendable (MaybeEvent<Element>) -> Void

    init(unchecked source: Observable<Element>) {
        self.source = source
    }

    /// A maybe whose subscriptions call `subscribe`; only the first event counts.
    public static func create(
        subscribe: @escaping @Sendable (@escaping @Sendable (MaybeEvent<Element>) -> Void) -> any Disposable
    ) -> Maybe<Element> {
        Maybe(unchecked: Observable.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        })
    }

    /// Succeeds with `element`.
    public static func just(_ element: Element) -> Maybe<Element> { Maybe(unchecked: .just(element)) }
    /// Completes empty.
    public static func empty() -> Maybe<Element> { Maybe(unchecked: .empty()) }
    /// Fails with `error`.
    public static func error(_ error: any Error) -> Maybe<Element> { Maybe(unchecked: .error(error)) }
    /// Never succeeds, completes or fails; only disposing ends it (useful to test timeouts).
    public static func never() -> Maybe<Element> { Maybe(unchecked: .never()) }

    /// Calls `factory` on each subscription; a throw fails the maybe.
    public static func deferred(_ factory: @escaping @Sendable () throws -> Maybe<Element>) -> Maybe<Element> {
        Maybe(unchecked: .deferred { try factory().source })
    }

    /// This maybe as an observable.
    public func asObservable() -> Observable<Element> { source }

    /// Subscribes with closures: `onSuccess` or `onCompleted` (empty) or `onError`, once.
    ///
    /// `onDisposed` runs once, after the outcome or on disposal.
    @discardableResult
    public func subscribe(
        onSuccess: (@Sendable (Element) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        let received = ReceivedFlag()
        return source.subscribe(
            onNext: { received.set(); onSuccess?($0) },
            onError: onError,
            onCompleted: { if !received.isSet { onCompleted?() } },
            onDisposed: onDisposed
        )
    }

    /// Subscribes with a closure taking the outcome, called once.
    ///
    /// ```swift
    /// cached.subscribe { event in
    ///     switch event { case .success(let v): show(v); case .completed: miss(); case .error(let e): fail(e) }
    /// }
    /// ```
    @discardableResult
    public func subscribe(_ observer: @escaping @Sendable (MaybeEvent<Element>) -> Void) -> any Disposable {
        subscribe(
            onSuccess: { observer(.success($0)) },
            onError: { observer(.error($0)) },
            onCompleted: { observer(.completed) }
        )
    }

    /// Subscribes with closures that get `object`, held weakly: once it is gone they are not called.
    @discardableResult
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        onSuccess: (@Sendable (Object, Element) -> Void)? = nil,
        onError: (@Sendable (Object, any Error) -> Void)? = nil,
        onCompleted: (@Sendable (Object) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        subscribe(
            onSuccess: { [weak object] element in if let object { onSuccess?(object, element) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }
}

/// Remembers that an element arrived, so an empty completion can be told apart.
final class ReceivedFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
