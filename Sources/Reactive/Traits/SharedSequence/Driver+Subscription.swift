extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Subscribes `observers`; each gets every event. Call from the main thread.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> any Disposable
        where Observer.Element == Element {
        let targets = observers.map { AnyObserver($0) }
        return asObservable().subscribe { event in targets.forEach { $0.on(event) } }
    }

    /// Subscribes `observers` of optional elements; each gets every event. Call from the main thread.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> any Disposable
        where Observer.Element == Element? {
        let targets = observers.map { AnyObserver($0) }
        return asObservable().map { $0 as Element? }.subscribe { event in targets.forEach { $0.on(event) } }
    }

    /// Sends every element to `relays`. Call from the main thread.
    public func drive(_ relays: BehaviorRelay<Element>...) -> any Disposable {
        drive(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` of optional elements. Call from the main thread.
    public func drive(_ relays: BehaviorRelay<Element?>...) -> any Disposable {
        drive(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Hands the driver's observable to a binder function and returns what it returns.
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        transformation(asObservable())
    }

    /// Hands the driver's observable to a curried binder function, then `curriedArgument`.
    public func drive<R1, R2>(_ with: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        with(asObservable())(curriedArgument)
    }

    /// Subscribes with closures; there is no `onError`, a driver never fails. Call from the main thread.
    ///
    /// ```swift
    /// title.drive(onNext: { label.text = $0 }).disposed(by: bag)
    /// ```
    public func drive(
        onNext: (@Sendable (Element) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with closures that get `object`, held weakly: once it is gone they are not called.
    public func drive<Object: AnyObject & Sendable>(
        with object: Object,
        onNext: (@Sendable (Object, Element) -> Void)? = nil,
        onCompleted: (@Sendable (Object) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        drive(
            onNext: { [weak object] element in if let object { onNext?(object, element) } },
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }

    /// Subscribes without handlers, to keep the driver's work running.
    public func drive() -> any Disposable {
        drive(onNext: nil, onCompleted: nil, onDisposed: nil)
    }
}
