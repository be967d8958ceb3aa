/// A `BehaviorSubject` that only ever emits elements, with its current `value` readable.
///
/// ```swift
/// let sections = BehaviorRelay<[String]>(value: [])
/// sections.accept(sections.value + ["new"])
/// ```
public final class BehaviorRelay<Element>: ObservableType, Sendable {
    @usableFromInline let subject: BehaviorSubject<Element>
    @usableFromInline let initial: UncheckedValue<Element>

    /// A relay whose current value is `value`.
    @inlinable
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
        initial = UncheckedValue(value)
    }

    /// The current value.
    public var value: Element {
        (try? subject.value()) ?? initial.value
    }

    /// Sets the current value and sends it to every observer.
    @inlinable
    public func accept(_ element: Element) { subject.onNext(element) }

    /// Adds an observer, which gets the current value first.
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

/// Keeps a value for a fallback that cannot happen in practice (a relay never stops).
// @unchecked: immutable after init.
@usableFromInline
final class UncheckedValue<Value>: @unchecked Sendable {
    @usableFromInline let value: Value
    @usableFromInline init(_ value: Value) { self.value = value }
}
