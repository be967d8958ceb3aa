/// Anything that can be seen as an `Observable`: observables, `Single`, `Completable`, `Maybe`.
public protocol ObservableConvertibleType<Element>: Sendable {
    /// The type of the elements emitted.
    associatedtype Element

    /// This sequence as an `Observable`.
    func asObservable() -> Observable<Element>
}

/// A push-based sequence that observers subscribe to.
public protocol ObservableType<Element>: ObservableConvertibleType {
    /// Starts the sequence for `observer`; dispose the result to stop it.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element

    /// This sequence as an `Observable`.
    func asObservable() -> Observable<Element>
}

extension ObservableType {
    /// Wraps any observable type; subscribing subscribes `self`, with the grammar enforced
    /// (nothing after a terminal event, which also disposes the subscription at once).
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}
