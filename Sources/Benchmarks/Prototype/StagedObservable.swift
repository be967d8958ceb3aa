import Reactive

/// A prototype kept out of `Reactive`'s API, to measure what a and a2 would cost if operators
/// returned their own concrete types (as Combine's `Publishers.Map` does) instead of
/// `Observable<Result>`: the whole chain's type is known where it is subscribed, so every stage
/// calls the next one directly and the compiler inlines the chain into one function per source
/// element. Only the first hop, from the underlying `Observable`, goes through a closure.
///
/// ```swift
/// Observable.from(values).staged.map { $0 * 3 }.filter { $0 & 1 == 0 }.subscribe(onNext: { print($0) })
/// ```
protocol StagedObservable<Element>: Sendable {
    associatedtype Element

    /// Subscribes a concrete sink chain to the underlying observable; returns that subscription.
    func subscribe<Downstream: ObserverType & Sendable>(staged downstream: Downstream) -> any Disposable
        where Downstream.Element == Element
}

extension StagedObservable {
    /// Transforms each element; a throw ends the sequence with that error.
    func map<Result>(_ transform: @escaping @Sendable (Element) throws -> Result) -> StagedMap<Self, Result> {
        StagedMap(upstream: self, transform: transform)
    }

    /// Keeps the elements that satisfy `predicate`; a throw ends the sequence with that error.
    func filter(_ predicate: @escaping @Sendable (Element) throws -> Bool) -> StagedFilter<Self> {
        StagedFilter(upstream: self, predicate: predicate)
    }

    /// Subscribes closures, as `ObservableType.subscribe(onNext:onError:onCompleted:)` does.
    @discardableResult
    func subscribe(
        onNext: (@Sendable (Element) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        let subscriber = StagedSubscriber(onNext: onNext, onError: onError, onCompleted: onCompleted)
        subscriber.attach(subscribe(staged: subscriber))
        return subscriber
    }
}

/// The first stage: an `Observable`, whose events reach the chain through one closure.
struct StagedSource<Element>: StagedObservable {
    let source: Observable<Element>

    func subscribe<Downstream: ObserverType & Sendable>(staged downstream: Downstream) -> any Disposable
        where Downstream.Element == Element {
        source.subscribe(AnyObserver { downstream.on($0) })
    }
}

extension Observable {
    /// This sequence as the first stage of a `StagedObservable` chain (a prototype).
    var staged: StagedSource<Element> { StagedSource(source: self) }
}
