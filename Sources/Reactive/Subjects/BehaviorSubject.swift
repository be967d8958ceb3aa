/// Holds a current value: a new observer gets it first, then later events.
///
/// ```swift
/// let state = BehaviorSubject(value: 0)
/// state.onNext(1)
/// state.subscribe(onNext: { print($0) })   // 1
/// ```
// @unchecked: all state is in `SubjectCore`, which locks it.
public final class BehaviorSubject<Element>: SubjectType, ObserverType, @unchecked Sendable {
    @usableFromInline let core: SubjectCore<Element>

    /// A subject whose current value is `value`.
    @inlinable
    public init(value: Element) {
        core = SubjectCore(bufferSize: 1, replaysAfterStop: false, initial: [value])
    }

    /// Nothing can send to the subject's subscribers anymore: they let go of it (see `ChainLink`).
    deinit { core.subjectReleased() }

    /// The current value; throws the error the subject ended with.
    public func value() throws -> Element {
        if case .error(let error) = core.stopEvent { throw error }
        guard let value = core.lastElement else { throw ReactiveError.noElements }
        return value
    }

    /// Whether anyone is subscribed.
    @inlinable
    public var hasObservers: Bool { core.hasObservers }

    /// Sets the current value (on `.next`) and sends `event` to every observer.
    @inlinable
    public func on(_ event: Event<Element>) { core.on(event) }

    /// Adds an observer, which gets the current value first.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element {
        core.subscribe(AnyObserver(observer))
    }

    /// This subject as an observable only.
    @inlinable
    public func asObservable() -> Observable<Element> {
        Observable { observer in self.core.subscribe(observer) }
    }
}
