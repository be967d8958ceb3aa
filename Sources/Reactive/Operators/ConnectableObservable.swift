/// An observable that shares one subscription to its source, started by `connect()`.
public protocol ConnectableObservableType<Element>: ObservableType {
    /// Subscribes the shared subject to the source, once: while connected, calling it again
    /// returns the same connection. Dispose the result to disconnect.
    func connect() -> any Disposable
}

/// What `publish()`, `replay(_:)` and `multicast` return: subscribers join a subject, which
/// receives the source's events from `connect()` until the connection is disposed.
///
/// ```swift
/// let ticks = Observable<Int>.interval(.seconds(1), scheduler: scheduler).publish()
/// ticks.subscribe(onNext: { print("a", $0) }).disposed(by: bag)
/// ticks.subscribe(onNext: { print("b", $0) }).disposed(by: bag)
/// ticks.connect().disposed(by: bag)
/// ```
public final class ConnectableObservable<Element>: ConnectableObservableType, Sendable {
    let subscribeHandler: @Sendable (AnyObserver<Element>) -> any Disposable
    let connectHandler: @Sendable () -> any Disposable
    let refCountHandler: @Sendable (AnyObserver<Element>) -> any Disposable

    init<Subject: SubjectType>(_ multicaster: Multicaster<Subject>) where Subject.Element == Element {
        subscribeHandler = { multicaster.subscribe($0) }
        connectHandler = { multicaster.connect() }
        refCountHandler = { multicaster.subscribeCounted($0) }
    }

    /// Subscribes the subject to the source; dispose the result to disconnect.
    public func connect() -> any Disposable { connectHandler() }

    /// Adds an observer to the current subject; it gets events once connected.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element {
        subscribeHandler(AnyObserver(observer))
    }

    /// This connectable as a plain observable (subscribing does not connect).
    public func asObservable() -> Observable<Element> {
        let subscribe = subscribeHandler
        return Observable { observer in subscribe(observer) }
    }

    /// An observable that connects when its first subscriber arrives and disconnects when the
    /// last one leaves or the source ends; a later subscriber connects again.
    ///
    /// The connection lives as long as it has subscribers, whoever holds the returned value.
    public func refCount() -> Observable<Element> {
        let subscribe = refCountHandler
        return Observable { observer in subscribe(observer) }
    }
}
