import Locking

extension ObservableType {
    /// Resubscribes after an error, up to `maxAttempts` subscriptions in all (the first
    /// included); the last error goes downstream.
    ///
    /// ```swift
    /// request.retry(3)   // at most 3 attempts
    /// ```
    public func retry(_ maxAttempts: Int) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = RetrySink(downstream: observer, source: source, maxAttempts: max(maxAttempts, 1))
            sink.subscribeNext()
            return sink
        }
    }

    /// Resubscribes after every error, forever; only completion (or disposal) ends it.
    ///
    /// ```swift
    /// connection.retry()
    /// ```
    public func retry() -> Observable<Element> {
        retry(Int.max)
    }

    /// Resubscribes each time the sequence that `notificationHandler` builds from the errors
    /// emits; its completion completes and its error fails the result.
    ///
    /// ```swift
    /// source.retry { errors in errors.flatMap { _ in Observable<Int>.timer(.seconds(1), scheduler: s) } }
    /// ```
    public func retry<Trigger: ObservableConvertibleType>(
        when notificationHandler: @escaping @Sendable (Observable<any Error>) -> Trigger
    ) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = RetryWhenSink(downstream: observer, source: source)
            let errors = PublishSubject<any Error>()
            sink.start(errors: errors, triggers: notificationHandler(errors.asObservable()).asObservable())
            return sink
        }
    }
}

// @unchecked: `attempts` is a Lock; `current` and `resubscription` are locked serial disposables.
final class RetrySink<Element>: Sink<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let maxAttempts: Int
    /// Subscriptions made so far, the first included.
    private let attempts = Lock(0)
    private let current = SerialDisposable()
    private let resubscription = SerialDisposable()

    init(downstream: AnyObserver<Element>, source: Observable<Element>, maxAttempts: Int) {
        self.source = source
        self.maxAttempts = maxAttempts
        super.init(downstream: downstream)
    }

    func subscribeNext() {
        attempts.withLock { $0 += 1 }
        let attempt = SingleAssignmentDisposable()
        current.disposable = attempt
        attempt.setDisposable(source.subscribe(handler: { self.on($0) }))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .completed: stop(with: .completed)
        case .error(let error):
            guard !isStopped else { return }
            let exhausted = attempts.withLock { $0 >= maxAttempts }
            if exhausted {
                stop(with: .error(error))
            } else {
                current.disposable = Disposables.create()
                resubscription.disposable = CurrentThreadScheduler.instance.schedule { [weak self] in
                    self?.subscribeNext()
                }
            }
        }
    }

    override func dispose() {
        super.dispose()
        current.dispose()
        resubscription.dispose()
    }
}

/// RxSwift's rules: the trigger sequence is subscribed once, before the source, but only a
/// trigger event that follows a source error counts. A `.next` then resubscribes (through the
/// current-thread trampoline, so synchronous failures loop instead of recursing); a terminal
/// event ends the result, at once when a source error waits for it, else at the next error.
///
/// Each event decides under `state` what to do and does it after the lock: forwarding, the
/// error going to the handler's subject, subscribing and disposing all run unlocked, so an
/// observer or a trigger busy on another thread never holds up the other side.
// @unchecked: the mutable fields live in `state` (a Lock); the disposables lock themselves.
final class RetryWhenSink<Element>: Sink<Element>, @unchecked Sendable {
    /// A terminal event without an element, so the state stays `Sendable` whatever `Element` is.
    private enum Ending: Sendable {
        case completed
        case failed(any Error)

        var event: Event<Element> {
            switch self {
            case .completed: .completed
            case .failed(let error): .error(error)
            }
        }
    }

    private struct State: Sendable {
        /// A source error went to the handler and no trigger `.next` has answered it yet.
        var awaitingTrigger = false
        /// The trigger's terminal event, kept until the next source error when none waited for it.
        var triggerEnded: Ending?
        /// A terminal event was chosen to go downstream; nothing else goes after it.
        var ended = false
        var errors: PublishSubject<any Error>?
    }

    private let source: Observable<Element>
    private let state = Lock(State())
    private let attempt = SerialDisposable()
    private let resubscription = SerialDisposable()
    private let triggerSubscription = SingleAssignmentDisposable()

    init(downstream: AnyObserver<Element>, source: Observable<Element>) {
        self.source = source
        super.init(downstream: downstream)
    }

    func start(errors: PublishSubject<any Error>, triggers: Observable<some Any>) {
        state.withLock { $0.errors = errors }
        triggerSubscription.setDisposable(triggers.subscribe(handler: { [self] event in
            switch event {
            case .next: onTrigger()
            case .error(let error): onTriggerEnded(.failed(error))
            case .completed: onTriggerEnded(.completed)
            }
        }))
        subscribeSource()
    }

    private func onTrigger() {
        guard state.withLock({ $0.awaitingTrigger }) else { return }
        resubscription.disposable = CurrentThreadScheduler.instance.schedule { [weak self] in
            guard let self else { return }
            let resubscribe = state.withLock { state -> Bool in
                guard state.awaitingTrigger, !state.ended else { return false }
                state.awaitingTrigger = false
                return true
            }
            if resubscribe { subscribeSource() }
        }
    }

    private func onTriggerEnded(_ ending: Ending) {
        let endNow = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            guard state.awaitingTrigger else {
                state.triggerEnded = ending
                return false
            }
            state.ended = true
            return true
        }
        if endNow { finish(ending.event) }
    }

    private func subscribeSource() {
        guard !state.withLock({ $0.ended }) else { return }
        let subscription = SingleAssignmentDisposable()
        attempt.disposable = subscription
        subscription.setDisposable(source.subscribe(handler: { [self] event in
            switch event {
            // Not `forwardNext`: this sink's end is `state.ended`, not `isStopped` (see `finish`).
            case .next(let element): downstream.on(.next(element))
            case .completed: onSourceCompleted()
            case .error(let error): onSourceError(error)
            }
        }))
    }

    private func onSourceCompleted() {
        let end = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            state.ended = true
            return true
        }
        if end { finish(.completed) }
    }

    private enum AfterError {
        case none
        case end(Ending)
        case ask(PublishSubject<any Error>)
    }

    private func onSourceError(_ error: any Error) {
        let next = state.withLock { state -> AfterError in
            guard !state.ended else { return .none }
            if let ended = state.triggerEnded {
                state.ended = true
                return .end(ended)
            }
            guard let errors = state.errors else { return .none }
            state.awaitingTrigger = true
            return .ask(errors)
        }
        switch next {
        case .none: return
        case .end(let ending): finish(ending.event)
        case .ask(let errors):
            attempt.disposable = Disposables.create()
            errors.onNext(error)
        }
    }

    /// Sends the terminal event the state chose; `ended`, set under the lock, makes it the only
    /// one. It may run on the trigger's thread, so it leaves `isStopped` (the serialized source
    /// path's flag) alone: no source element can follow, as the attempt had failed or completed.
    private func finish(_ event: Event<Element>) {
        forwardTerminal(event)
    }

    override func dispose() {
        super.dispose()
        attempt.dispose()
        resubscription.dispose()
        triggerSubscription.dispose()
        state.withLock { $0.errors = nil }
    }
}
