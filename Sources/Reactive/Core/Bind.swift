extension ObservableType {
    /// Sends every event to each of `observers` (subjects included).
    ///
    /// ```swift
    /// taps.bind(to: submitted, analytics)
    /// ```
    @discardableResult
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
        where Observer.Element == Element {
        let targets = observers.map { AnyObserver($0) }
        return subscribe { event in
            for target in targets { target.on(event) }
        }
    }

    /// Sends every event to each of `observers` of optional elements.
    @discardableResult
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
        where Observer.Element == Element? {
        let targets = observers.map { AnyObserver($0) }
        return subscribe { event in
            let optional = event.map { Optional($0) }
            for target in targets { target.on(optional) }
        }
    }

    /// Accepts every element into each of `relays`; completion is dropped, and an error (a
    /// programming error for a binding) is reported through `DebugLog` and ends the binding.
    ///
    /// ```swift
    /// results.bind(to: resultsRelay)
    /// ```
    @discardableResult
    public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
        bindAccepting(into: relays.map { relay in { relay.accept($0) } }, kind: "publish relay")
    }

    /// Accepts every element, as an optional, into each of `relays`.
    @discardableResult
    public func bind(to relays: PublishRelay<Element?>...) -> any Disposable {
        bindAccepting(into: relays.map { relay in { relay.accept($0) } }, kind: "publish relay")
    }

    /// Accepts every element into each of `relays`, setting their `value`.
    @discardableResult
    public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
        bindAccepting(into: relays.map { relay in { relay.accept($0) } }, kind: "behavior relay")
    }

    /// Accepts every element, as an optional, into each of `relays`.
    @discardableResult
    public func bind(to relays: BehaviorRelay<Element?>...) -> any Disposable {
        bindAccepting(into: relays.map { relay in { relay.accept($0) } }, kind: "behavior relay")
    }

    /// Calls `binder` with this observable and returns what it returns.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Calls `binder` with this observable, then the result with `curriedArgument`.
    public func bind<Intermediate, Result>(
        to binder: (Self) -> (Intermediate) -> Result, curriedArgument: Intermediate
    ) -> Result {
        binder(self)(curriedArgument)
    }

    /// Calls `onNext` with every element; an error is reported through `DebugLog`.
    ///
    /// ```swift
    /// title.bind(onNext: { label.text = $0 })
    /// ```
    @discardableResult
    public func bind(onNext: @escaping @Sendable (Element) -> Void) -> any Disposable {
        subscribe(onNext: onNext, onError: { error in
            DebugLog.write("Binding error: \(error)")
        })
    }

    private func bindAccepting(into accepts: [@Sendable (Element) -> Void], kind: String) -> any Disposable {
        subscribe(onNext: { element in
            for accept in accepts { accept(element) }
        }, onError: { error in
            DebugLog.write("Binding error to \(kind): \(error)")
        })
    }
}
