extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Subscribes `observers`; each gets every event.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> any Disposable
        where Observer.Element == Element {
        let targets = observers.map { AnyObserver($0) }
        return asObservable().subscribe { event in targets.forEach { $0.on(event) } }
    }

    /// Subscribes `observers` of optional elements; each gets every event.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> any Disposable
        where Observer.Element == Element? {
        let targets = observers.map { AnyObserver($0) }
        return asObservable().map { $0 as Element? }.subscribe { event in targets.forEach { $0.on(event) } }
    }

    /// Sends every element to `relays`.
    public func emit(to relays: BehaviorRelay<Element>...) -> any Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` of optional elements.
    public func emit(to relays: BehaviorRelay<Element?>...) -> any Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays`.
    public func emit(to relays: PublishRelay<Element>...) -> any Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` of optional elements.
    public func emit(to relays: PublishRelay<Element?>...) -> any Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Subscribes with closures; there is no `onError`, a signal never fails.
    ///
    /// ```swift
    /// taps.emit(onNext: { save() }).disposed(by: bag)
    /// ```
    public func emit(
        onNext: (@Sendable (Element) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil,
        onDisposed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with closures that get `object`, held weakly: once it is gone they are not called.
    public func emit<Object: AnyObject & Sendable>(
        with object: Object,
        onNext: (@Sendable (Object, Element) -> Void)? = nil,
        onCompleted: (@Sendable (Object) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        emit(
            onNext: { [weak object] element in if let object { onNext?(object, element) } },
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }

    /// Subscribes without handlers, to keep the signal's work running.
    public func emit() -> any Disposable {
        emit(onNext: nil, onCompleted: nil, onDisposed: nil)
    }
}
