extension ObservableType {
    /// This sequence as a `Single`: fails with `ReactiveError.noElements` when it completes
    /// empty and with `.moreThanOneElement` at a second element.
    public func asSingle() -> Single<Element> {
        let source = asObservable()
        return Single(unchecked: Observable { observer in
            let sink = AsSingleSink(downstream: observer, requiresElement: true)
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            return sink
        })
    }

    /// This sequence as a `Maybe`: fails with `.moreThanOneElement` at a second element.
    public func asMaybe() -> Maybe<Element> {
        let source = asObservable()
        return Maybe(unchecked: Observable { observer in
            let sink = AsSingleSink(downstream: observer, requiresElement: false)
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            return sink
        })
    }
}

// @unchecked: `element` is touched only on the serialized event path.
final class AsSingleSink<Element>: Sink<Element>, @unchecked Sendable {
    private var element: Element?
    private let requiresElement: Bool

    init(downstream: AnyObserver<Element>, requiresElement: Bool) {
        self.requiresElement = requiresElement
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            guard !isStopped else { return }
            if element != nil {
                stop(with: .error(ReactiveError.moreThanOneElement))
            } else {
                element = value
            }
        case .error(let error): stop(with: .error(error))
        case .completed:
            guard !isStopped else { return }
            if let element {
                downstream.on(.next(element))
                stop(with: .completed)
            } else if requiresElement {
                stop(with: .error(ReactiveError.noElements))
            } else {
                stop(with: .completed)
            }
        }
    }
}
