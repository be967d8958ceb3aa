/// A sink that takes the events of one upstream sequence.
@usableFromInline
protocol OperatorSink<Input>: AnyObject, Sendable {
    /// The upstream element type.
    associatedtype Input
    /// Takes one upstream event.
    func on(_ event: Event<Input>)
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
            #if DEBUG
            sink.upstream.set(source.subscribe(handler: { event in sink.checkingOverlap { sink.on(event) } }))
            #else
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            #endif
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
            #if DEBUG
            sink.upstream.set(source.subscribe(handler: { event in sink.checkingOverlap { sink.on(event) } }))
            #else
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            #endif
            return sink
        }
    }
}
