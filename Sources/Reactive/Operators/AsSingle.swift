extension ObservableType {
    /// This sequence as a `Single`: fails with `ReactiveError.noElements` when it completes
    /// empty and with `.moreThanOneElement` at a second element.
    public func asSingle() -> Single<Element> {
        return Single(unchecked: lift { AsSingleSink(downstream: $0, requiresElement: true) })
    }

    /// This sequence as a `Maybe`: fails with `.moreThanOneElement` at a second element.
    public func asMaybe() -> Maybe<Element> {
        return Maybe(unchecked: lift { AsSingleSink(downstream: $0, requiresElement: false) })
    }
}

// @unchecked: `element` is touched only on the serialized event path.
final class AsSingleSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
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
