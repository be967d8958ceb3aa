/// Receives the events of a sequence.
public protocol ObserverType<Element> {
    /// The type of the elements received.
    associatedtype Element
    /// Delivers one event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Delivers `.next(element)`.
    public func onNext(_ element: Element) { on(.next(element)) }
    /// Delivers `.error(error)`.
    public func onError(_ error: any Error) { on(.error(error)) }
    /// Delivers `.completed`.
    public func onCompleted() { on(.completed) }
    /// This observer, type-erased.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }
}

/// A type-erased observer: a closure that takes events.
///
/// ```swift
/// let observer = AnyObserver<Int> { event in print(event) }
/// ```
public struct AnyObserver<Element>: ObserverType, Sendable {
    /// The closure that takes the events (RxSwift's name).
    public typealias EventHandler = @Sendable (Event<Element>) -> Void

    @usableFromInline let handler: EventHandler

    /// An observer that calls `handler` with each event.
    public init(_ handler: @escaping EventHandler) {
        self.handler = handler
    }

    /// RxSwift's spelling of `init(_:)` (disfavoured, so `AnyObserver { ... }` stays `init(_:)`).
    @_disfavoredOverload
    public init(eventHandler: @escaping EventHandler) {
        self.handler = eventHandler
    }

    /// Wraps any observer; the wrapped one must tolerate being called from the thread that emits.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        if let any = observer as? AnyObserver<Element> {
            self = any
        } else {
            let receiver: any EventReceiver<Element> = UncheckedObserverBox(observer)
            self.handler = { receiver.receive($0) }
        }
    }

    /// Delivers one event.
    @inlinable
    public func on(_ event: Event<Element>) { handler(event) }
}

/// Holds a caller's observer for `AnyObserver.init(_:)`.
// @unchecked: the observer is only called with the sequence's serialized events, as the caller's own `subscribe` would.
final class UncheckedObserverBox<Observer: ObserverType>: EventReceiver, @unchecked Sendable {
    let observer: Observer
    init(_ observer: Observer) { self.observer = observer }
    func receive(_ event: Event<Observer.Element>) { observer.on(event) }
}

/// Something that takes events, called through an existential so closures need not capture a metatype.
protocol EventReceiver<Element>: AnyObject, Sendable {
    associatedtype Element
    func receive(_ event: Event<Element>)
}
