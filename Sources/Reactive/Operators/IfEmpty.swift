extension ObservableType {
    /// Emits `element` and completes when the source completes without an element.
    ///
    /// ```swift
    /// Observable<Int>.empty().ifEmpty(default: 0)   // 0, completed
    /// ```
    public func ifEmpty(default element: Element) -> Observable<Element> {
        return lift { IfEmptySink(downstream: $0, fallback: .just(element)) }
    }

    /// Continues with `other` when the source completes without an element.
    ///
    /// ```swift
    /// cached.ifEmpty(switchTo: network)
    /// ```
    public func ifEmpty<Other: ObservableConvertibleType>(switchTo other: Other) -> Observable<Element>
        where Other.Element == Element {
        let fallback = other.asObservable()
        return lift { IfEmptySink(downstream: $0, fallback: fallback) }
    }
}

// @unchecked: `isEmpty` is on the serialized event path; `switched` is a locked serial disposable.
final class IfEmptySink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private let fallback: Observable<Element>
    private let switched = SerialDisposable()
    private var isEmpty = true

    init(downstream: AnyObserver<Element>, fallback: Observable<Element>) {
        self.fallback = fallback
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isStopped else { return }
            isEmpty = false
            downstream.on(.next(element))
        case .error(let error): stop(with: .error(error))
        case .completed:
            guard !isStopped else { return }
            guard isEmpty else {
                stop(with: .completed)
                return
            }
            isStopped = true
            upstream.dispose()
            switched.disposable = fallback.subscribe(handler: { [self] event in
                if !wasDisposed { downstream.on(event) }
            })
        }
    }

    override func dispose() {
        super.dispose()
        switched.dispose()
    }
}
