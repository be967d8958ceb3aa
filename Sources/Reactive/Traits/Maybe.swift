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

/// A sequence of at most one element: one success, an empty completion, or one error.
///
/// ```swift
/// cache.lookup(key).subscribe(onSuccess: { print($0) }, onCompleted: { print("miss") })
/// ```
public struct Maybe<Element>: ObservableConvertibleType {
    let source: Observable<Element>

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
    /// Never answers.
    public static func never() -> Maybe<Element> { Maybe(unchecked: .never()) }

    /// This maybe as an observable.
    public func asObservable() -> Observable<Element> { source }

    /// Subscribes with closures.
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

    /// Transforms the element.
    public func map<Result>(_ transform: @escaping @Sendable (Element) throws -> Result) -> Maybe<Result> {
        Maybe<Result>(unchecked: source.map(transform))
    }

    /// Keeps the element when `predicate` holds.
    public func filter(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(unchecked: source.filter(predicate))
    }

    /// Continues with the maybe that `selector` returns.
    public func flatMap<Result>(_ selector: @escaping @Sendable (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe<Result>(unchecked: source.flatMap(selector))
    }

    /// On failure, continues with what `handler` returns.
    public func `catch`(_ handler: @escaping @Sendable (any Error) throws -> Maybe<Element>) -> Maybe<Element> {
        Maybe(unchecked: source.catch(handler))
    }

    /// A single that fails with `ReactiveError.noElements` when this maybe is empty.
    public func asSingle() -> Single<Element> { source.asSingle() }
}

/// Remembers that an element arrived, so an empty completion can be told apart.
final class ReceivedFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
