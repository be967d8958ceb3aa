/// A `PublishSubject` that only ever emits elements: it cannot fail or complete.
///
/// ```swift
/// let taps = PublishRelay<Void>()
/// taps.accept(())
/// ```
public final class PublishRelay<Element>: ObservableType, Sendable {
    @usableFromInline let subject = PublishSubject<Element>()

    /// A relay with no observers.
    @inlinable
    public init() {}

    /// Sends `element` to every current observer.
    @inlinable
    public func accept(_ element: Element) { subject.onNext(element) }

    /// Adds an observer.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// This relay as an observable.
    @inlinable
    public func asObservable() -> Observable<Element> { subject.asObservable() }

    /// This relay as an `Infallible` (a relay never fails, nor completes), as RxRelay's
    /// `asInfallible()`.
    public func asInfallible() -> Infallible<Element> { Infallible(subject.asObservable()) }
}
