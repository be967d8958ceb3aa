extension InfallibleType {
    /// Subscribes with closures; `onDisposed` runs once, after the completion or on disposal.
    ///
    /// ```swift
    /// names.subscribe(onNext: { print($0) })
    /// ```
    @discardableResult
    public func subscribe(
        onNext: (@Sendable (Element) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with closures that receive `object`, held weakly.
    @discardableResult
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        onNext: (@Sendable (Object, Element) -> Void)? = nil,
        onCompleted: (@Sendable (Object) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with a closure taking every event (never an error).
    @discardableResult
    public func subscribe(_ on: @escaping @Sendable (Event<Element>) -> Void) -> any Disposable {
        asObservable().subscribe(on)
    }

    /// Sends the elements and the completion to `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
        where Observer.Element == Element {
        let targets = observers.map { AnyObserver($0) }
        return asObservable().subscribe { event in targets.forEach { $0.on(event) } }
    }

    /// Sends the elements to `relays`.
    public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends the elements to `relays`.
    public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Calls `onNext` with each element.
    public func bind(onNext: @escaping @Sendable (Element) -> Void) -> any Disposable {
        asObservable().subscribe(onNext: onNext)
    }
}
