/// Emits to its current observers what it is sent; late observers get only later events
/// (and the terminal event, if it came already).
///
/// ```swift
/// let subject = PublishSubject<Int>()
/// subject.subscribe(onNext: { print($0) })
/// subject.onNext(1)
/// ```
// @unchecked: all state is in `SubjectCore`, which locks it; `observable` is immutable.
public final class PublishSubject<Element>: SubjectType, ObserverType, @unchecked Sendable {
    @usableFromInline let core: SubjectCore<Element>
    /// What `asObservable()` returns: made once, so a subscription allocates no wrapper.
    @usableFromInline let observable: Observable<Element>

    /// A subject with no observers.
    @inlinable
    public init() {
        let core = SubjectCore<Element>(bufferSize: 0, replaysAfterStop: false)
        self.core = core
        observable = Observable { observer in core.subscribe(observer) }
    }

    /// Nothing can send to the subject's subscribers anymore: they let go of it (see `ChainLink`).
    deinit { core.subjectReleased() }

    /// Whether anyone is subscribed.
    @inlinable
    public var hasObservers: Bool { core.hasObservers }

    /// Sends `event` to every current observer.
    @inlinable
    public func on(_ event: Event<Element>) { core.on(event) }

    /// Adds an observer.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element {
        core.subscribe(AnyObserver(observer))
    }

    /// This subject as an observable only.
    @inlinable
    public func asObservable() -> Observable<Element> { observable }
}
