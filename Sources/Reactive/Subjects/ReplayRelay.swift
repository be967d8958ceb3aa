/// A `ReplaySubject` that only ever emits elements: it cannot fail or complete. A new observer
/// first gets the last `bufferSize` elements.
///
/// ```swift
/// let log = ReplayRelay<String>.create(bufferSize: 10)
/// log.accept("started")
/// log.subscribe(onNext: { print($0) })   // started
/// ```
public final class ReplayRelay<Element>: ObservableType, Sendable {
    @usableFromInline let subject: ReplaySubject<Element>

    @usableFromInline
    init(subject: ReplaySubject<Element>) {
        self.subject = subject
    }

    /// A relay replaying the last `bufferSize` elements to each new observer.
    @inlinable
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize))
    }

    /// A relay replaying every element to each new observer.
    @inlinable
    public static func createUnbounded() -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded())
    }

    /// Records `element` and sends it to every observer.
    @inlinable
    public func accept(_ element: Element) { subject.onNext(element) }

    /// Adds an observer, which gets the buffered elements first.
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

extension ObservableType {
    /// Sends every element of this sequence to each of `relays`. Relays cannot fail or
    /// complete: the binding ends at this sequence's terminal event, which is not forwarded.
    ///
    /// ```swift
    /// source.bind(to: history).disposed(by: bag)
    /// ```
    public func bind(to relays: ReplayRelay<Element>...) -> any Disposable {
        subscribe { event in
            if case .next(let element) = event {
                for relay in relays { relay.accept(element) }
            }
        }
    }

    /// Sends every element of this sequence, as an optional, to each of `relays`; the binding
    /// ends at this sequence's terminal event, which is not forwarded.
    public func bind(to relays: ReplayRelay<Element?>...) -> any Disposable {
        subscribe { event in
            if case .next(let element) = event {
                for relay in relays { relay.accept(element) }
            }
        }
    }
}
