/// A value that carries an `Event`: what `dematerialize()` turns back into events.
public protocol EventConvertible<Element> {
    /// The element type of the event.
    associatedtype Element
    /// The event this value stands for.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Element> { self }
}

extension ObservableType where Element: EventConvertible {
    /// Turns elements that are events back into events: the inverse of `materialize()`; the
    /// first terminal element ends the result.
    ///
    /// ```swift
    /// Observable.of(Event.next(1), .completed).dematerialize()   // 1, completed
    /// ```
    public func dematerialize() -> Observable<Element.Element> {
        return lift { DematerializeSink<Element>(downstream: $0) }
    }
}

// @unchecked: state is touched only on the serialized event path.
final class DematerializeSink<Carrier: EventConvertible>: Sink<Carrier.Element>, OperatorSink, @unchecked Sendable {
    func on(_ event: Event<Carrier>) {
        guard !isStopped else { return }
        switch event {
        case .next(let carrier):
            let inner = carrier.event
            if case .next(let element) = inner {
                downstream.on(.next(element))
            } else {
                stop(with: inner)
            }
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }
}
