/// Replays up to `bufferSize` past elements to each new observer, even after it ended.
///
/// ```swift
/// let log = ReplaySubject<String>.create(bufferSize: 10)
/// ```
// @unchecked: all state is in `SubjectCore`, which locks it.
public final class ReplaySubject<Element>: SubjectType, ObserverType, @unchecked Sendable {
    @usableFromInline let core: SubjectCore<Element>

    @usableFromInline
    init(bufferSize: Int) {
        core = SubjectCore(bufferSize: bufferSize, replaysAfterStop: true)
    }

    /// Nothing can send to the subject's subscribers anymore: they let go of it (see `ChainLink`).
    deinit { core.subjectReleased() }

    /// A subject replaying the last `bufferSize` elements.
    @inlinable
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: max(bufferSize, 0))
    }

    /// A subject replaying every element.
    @inlinable
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: Int.max)
    }

    /// Whether anyone is subscribed.
    @inlinable
    public var hasObservers: Bool { core.hasObservers }

    /// Records `event` and sends it to every observer.
    @inlinable
    public func on(_ event: Event<Element>) { core.on(event) }

    /// Adds an observer, which gets the buffered elements first.
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
