/// Emits to its current observers what it is sent; late observers get only later events
/// (and the terminal event, if it came already).
///
/// ```swift
/// let subject = PublishSubject<Int>()
/// subject.subscribe(onNext: { print($0) })
/// subject.onNext(1)
/// ```
// @unchecked: all state is in `SubjectCore`, which locks it.
public final class PublishSubject<Element>: ObservableType, ObserverType, @unchecked Sendable {
    private let core = SubjectCore<Element>(bufferSize: 0, replaysAfterStop: false)

    /// A subject with no observers.
    public init() {}

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Sends `event` to every current observer.
    public func on(_ event: Event<Element>) { core.on(event) }

    /// Adds an observer.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element {
        core.subscribe(AnyObserver(observer))
    }

    /// This subject as an observable only.
    public func asObservable() -> Observable<Element> {
        Observable { observer in self.core.subscribe(observer) }
    }
}
