/// A sink that takes the events of one upstream sequence.
@usableFromInline
protocol OperatorSink<Input>: AnyObject, Sendable {
    /// The upstream element type.
    associatedtype Input
    /// Whether the sink gets events from its upstream alone (no timer, no other source), so that
    /// it lets go of its upstream when that ends (see `ChainLink`); `false` unless a sink says so.
    static var endsWithItsUpstream: Bool { get }
    /// Takes one upstream event.
    func on(_ event: Event<Input>)
}

extension OperatorSink {
    /// Most sinks have other event sources or state to keep: they stay until disposed.
    @inlinable
    static var endsWithItsUpstream: Bool { false }
}

/// Subscribes `sink` to `source` and keeps the subscription as its upstream; a sink fed by its
/// upstream alone asks that subscription to say when it ends (see `ChainLink`).
@inlinable
func subscribeSink<Element, Output, OperatorSinkType>(_ sink: OperatorSinkType, to source: Observable<Element>)
    where OperatorSinkType: Sink<Output>, OperatorSinkType: OperatorSink, OperatorSinkType.Input == Element {
    #if DEBUG
    let subscription = source.subscribe(handler: { event in sink.checkingOverlap { sink.on(event) } })
    #else
    let subscription = source.subscribe(handler: { sink.on($0) })
    #endif
    if OperatorSinkType.endsWithItsUpstream {
        subscription._notifyWhenUpstreamEnds(sink)
    }
    sink.upstream.set(subscription)
}

extension ObservableType {
    /// An observable whose every subscription makes a sink with `makeSink`, subscribes it to this
    /// sequence, and returns it as the subscription: the wiring every one-upstream operator shares.
    @inlinable
    func lift<Output, OperatorSinkType>(
        _ makeSink: @escaping (AnyObserver<Output>) -> OperatorSinkType
    ) -> Observable<Output> where OperatorSinkType: Sink<Output>, OperatorSinkType: OperatorSink,
        OperatorSinkType.Input == Element {
        let source = asObservable()
        return Observable { observer in
            let sink = makeSink(observer)
            subscribeSink(sink, to: source)
            return sink
        }
    }

    /// `lift` for operators whose sink needs one value (a transform, a predicate): `makeSink`
    /// captures nothing and gets `parameter` back, so the operator allocates one closure
    /// context (source and parameter) instead of two.
    @inlinable
    func lift<Output, Parameter, OperatorSinkType>(
        with parameter: Parameter,
        _ makeSink: @escaping (AnyObserver<Output>, Parameter) -> OperatorSinkType
    ) -> Observable<Output> where OperatorSinkType: Sink<Output>, OperatorSinkType: OperatorSink,
        OperatorSinkType.Input == Element {
        let source = asObservable()
        return Observable { observer in
            let sink = makeSink(observer, parameter)
            subscribeSink(sink, to: source)
            return sink
        }
    }
}
