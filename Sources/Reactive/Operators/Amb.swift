extension ObservableType {
    /// Mirrors whichever of this sequence and `right` sends an event first (an element, an
    /// error or the completion) and disposes the other.
    ///
    /// ```swift
    /// primary.amb(mirror)
    /// ```
    public func amb<Right: ObservableConvertibleType>(_ right: Right) -> Observable<Element>
        where Right.Element == Element {
        Observable.amb([asObservable(), right.asObservable()])
    }

    /// Mirrors whichever of `sequence`'s observables sends an event first and disposes the
    /// others; an empty sequence never emits.
    public static func amb<Sources: Sequence>(_ sequence: Sources) -> Observable<Element>
        where Sources.Element == Observable<Element> {
        let sources = Array(sequence)
        return Observable { observer in
            let sink = AmbSink(downstream: observer, count: sources.count)
            sink.run(sources)
            return sink
        }
    }
}

/// The race is decided under `state`'s lock; the winner's events then go straight downstream
/// (one source, already serialized), and the losers are disposed outside the lock.
// @unchecked: `winner` is in `state`, a `LockedState` never held while calling out.
final class AmbSink<Element>: Sink<Element>, @unchecked Sendable {
    private struct State {
        var winner: Int?
    }

    private let state = LockedState(State())
    private let subscriptions: [SingleAssignmentDisposable]

    init(downstream: AnyObserver<Element>, count: Int) {
        subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
        super.init(downstream: downstream)
    }

    func run(_ sources: [Observable<Element>]) {
        for (index, source) in sources.enumerated() {
            guard !subscriptions[index].isDisposed else { continue }
            subscriptions[index].setDisposable(source.subscribe(handler: { self.on($0, index: index) }))
        }
    }

    private func on(_ event: Event<Element>, index: Int) {
        let (wins, decidedNow) = state.withLock { state -> (Bool, Bool) in
            if let winner = state.winner { return (winner == index, false) }
            state.winner = index
            return (true, true)
        }
        guard wins else { return }
        if decidedNow {
            for (other, subscription) in subscriptions.enumerated() where other != index { subscription.dispose() }
        }
        switch event {
        case .next(let element): forwardNext(element)
        case .error, .completed: stop(with: event)
        }
    }

    override func dispose() {
        super.dispose()
        for subscription in subscriptions { subscription.dispose() }
    }
}
