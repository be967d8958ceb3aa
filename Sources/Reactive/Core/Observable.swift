/// A sequence of elements over time, subscribed to with an observer or closures.
///
/// ```swift
/// Observable.of(1, 2, 3)
///     .map { $0 * 10 }
///     .subscribe(onNext: { print($0) })
///     .disposed(by: bag)
/// ```
///
/// An `Observable` is an immutable description: each subscription runs it anew.
// @unchecked, whatever `Element`: the producer is immutable and runs anew on each subscribing
// thread, and what it captures is other observables and `@Sendable` closures, except the
// elements that `just`, `of`, `startWith`... hand to every subscriber. Those are shared the way a
// `let` constant is (each subscriber gets the same value); a non-`Sendable` element that is
// mutated by one subscriber while another reads it is the caller's race, as in RxSwift. Operators
// that move elements to other threads or tasks require `Element: Sendable`.
public final class Observable<Element>: ObservableType, @unchecked Sendable {
    @usableFromInline let producer: (AnyObserver<Element>) -> any Disposable

    /// An observable whose subscriptions call `producer`; see `create` for the public form.
    @inlinable
    init(_ producer: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.producer = producer
    }

    /// Subscribes `observer`; nested synchronous sources run on this thread's trampoline,
    /// so a downstream `take` can stop them.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element {
        subscribe(AnyObserver(observer))
    }

    /// The subscription path every operator takes.
    @inlinable
    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        Trampoline.subscribe { producer(observer) }
    }

    /// Subscribes a handler closure (used by operators for their sinks).
    @inlinable
    func subscribe(handler: @escaping @Sendable (Event<Element>) -> Void) -> any Disposable {
        subscribe(AnyObserver(handler))
    }

    /// Returns `self`.
    @inlinable
    public func asObservable() -> Observable<Element> { self }
}
