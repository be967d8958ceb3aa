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
// @unchecked: immutable after init; the producer runs on the subscribing thread, and operators
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
        if Trampoline.current != nil {
            return producer(observer)
        }
        return Trampoline.run { producer(observer) }
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
