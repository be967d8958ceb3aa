extension Observable {
    /// Subscribes to the observables of `sequence` in turn, moving to the next one when the
    /// current one fails; completes with the first that completes, fails with the last error
    /// when all failed, and completes at once when the sequence is empty.
    ///
    /// ```swift
    /// Observable.catch(sequence: [primary, mirror, cache])
    /// ```
    public static func `catch`<Sources: Sequence>(sequence: Sources) -> Observable<Element>
        where Sources.Element == Observable<Element> {
        Observable { observer in
            let sink = CatchSequenceSink(downstream: observer, iterator: AnyIterator(sequence.makeIterator()))
            sink.subscribeNext(lastError: nil)
            return sink
        }
    }
}

// @unchecked: `iterator` is advanced only in `subscribeNext`, which runs for one source at a
// time (after the previous one failed); `current` and `resubscription` are locked serial disposables.
final class CatchSequenceSink<Element>: Sink<Element>, @unchecked Sendable {
    private let iterator: AnyIterator<Observable<Element>>
    private let current = SerialDisposable()
    private let resubscription = SerialDisposable()

    init(downstream: AnyObserver<Element>, iterator: AnyIterator<Observable<Element>>) {
        self.iterator = iterator
        super.init(downstream: downstream)
    }

    func subscribeNext(lastError: (any Error)?) {
        guard !isStopped, !current.isDisposed else { return }
        guard let next = iterator.next() else {
            stop(with: lastError.map { .error($0) } ?? .completed)
            return
        }
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        subscription.setDisposable(next.subscribe(handler: { self.on($0) }))
    }

    private func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .completed: stop(with: .completed)
        case .error(let error):
            guard !isStopped else { return }
            current.disposable = Disposables.create()
            resubscription.disposable = CurrentThreadScheduler.instance.schedule { [weak self] in
                self?.subscribeNext(lastError: error)
            }
        }
    }

    override func dispose() {
        super.dispose()
        current.dispose()
        resubscription.dispose()
    }
}
