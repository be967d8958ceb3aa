/// What an `Infallible`'s `create` observer takes: an element or the completion, never an error.
public enum InfallibleEvent<Element> {
    /// An element.
    case next(Element)
    /// The end of the sequence.
    case completed
}

extension InfallibleEvent: Sendable where Element: Sendable {}

/// Anything that can be seen as an `Infallible`.
public protocol InfallibleType<Element>: ObservableConvertibleType {
    /// This sequence as an `Infallible`.
    func asInfallible() -> Infallible<Element>
}

/// A sequence that never fails (RxSwift's `Infallible`): elements, then maybe a completion.
///
/// Unlike a `Driver` it neither shares nor changes threads. Get one with
/// `asInfallible(onErrorJustReturn:)` and friends, or build one:
/// ```swift
/// let ticks = Infallible<Int>.create { observer in
///     observer(.next(1))
///     observer(.completed)
///     return Disposables.create()
/// }
/// ticks.subscribe(onNext: { print($0) })
/// ```
public struct Infallible<Element>: InfallibleType {
    let source: Observable<Element>

    /// Wraps an observable already known never to fail.
    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The closure `create` hands to its subscribe function.
    public typealias InfallibleObserver = @Sendable (InfallibleEvent<Element>) -> Void

    /// An infallible whose subscriptions call `subscribe` with an event closure.
    public static func create(
        subscribe: @escaping @Sendable (@escaping InfallibleObserver) -> any Disposable
    ) -> Infallible<Element> {
        Infallible(Observable.create { observer in
            subscribe { event in
                switch event {
                case .next(let element): observer.on(.next(element))
                case .completed: observer.on(.completed)
                }
            }
        })
    }

    /// The sequence as an observable (which then never fails).
    public func asObservable() -> Observable<Element> { source }

    /// `self`.
    public func asInfallible() -> Infallible<Element> { self }
}
