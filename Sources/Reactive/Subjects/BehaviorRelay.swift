/// A `BehaviorSubject` that only ever emits elements, with its current `value` readable.
///
/// ```swift
/// let sections = BehaviorRelay<[String]>(value: [])
/// sections.accept(sections.value + ["new"])
/// ```
public final class BehaviorRelay<Element>: ObservableType, Sendable {
    private let subject: BehaviorSubject<Element>
    private let initial: UncheckedValue<Element>

    /// A relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
        initial = UncheckedValue(value)
    }

    /// The current value.
    public var value: Element {
        (try? subject.value()) ?? initial.value
    }

    /// Sets the current value and sends it to every observer.
    public func accept(_ element: Element) { subject.onNext(element) }

    /// Adds an observer, which gets the current value first.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// This relay as an observable.
    public func asObservable() -> Observable<Element> { subject.asObservable() }
}

/// Keeps a value for a fallback that cannot happen in practice (a relay never stops).
// @unchecked: immutable after init.
final class UncheckedValue<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
