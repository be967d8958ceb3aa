extension ObservableType {
    /// Emits the last `count` elements when the source completes, then completes; an error
    /// goes through without them.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).takeLast(2)   // 2, 3, completed
    /// ```
    public func takeLast(_ count: Int) -> Observable<Element> {
        return lift { TakeLastSink(downstream: $0, count: max(count, 0)) }
    }
}

// @unchecked: the ring buffer is touched only on the serialized event path.
final class TakeLastSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    private let count: Int
    private var ring: [Element] = []
    /// The index of the oldest element once the ring is full.
    private var start = 0

    init(downstream: AnyObserver<Element>, count: Int) {
        self.count = count
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard count > 0 else { return }
            if ring.count < count {
                ring.append(element)
            } else {
                ring[start] = element
                start = (start + 1) % count
            }
        case .error(let error):
            ring = []
            stop(with: .error(error))
        case .completed:
            guard !isStopped else { return }
            let last = ring[start...] + ring[..<start]
            ring = []
            for element in last {
                guard !isStopped, !wasDisposed else { return }
                downstream.on(.next(element))
            }
            stop(with: .completed)
        }
    }
}
