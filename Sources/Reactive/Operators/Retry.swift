import Foundation

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

// @unchecked: `attempts` is guarded by `lock`; `current` and `resubscription` are locked serial disposables.
final class RetrySink<Element>: Sink<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let maxAttempts: Int
    private let lock = NSRecursiveLock()
    private var attempts = 0
    private let current = SerialDisposable()
    private let resubscription = SerialDisposable()

    init(downstream: AnyObserver<Element>, source: Observable<Element>, maxAttempts: Int) {
        self.source = source
        self.maxAttempts = maxAttempts
        super.init(downstream: downstream)
    }

    func subscribeNext() {
        lock.withLock { attempts += 1 }
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
            let exhausted = lock.withLock { attempts >= maxAttempts }
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
// @unchecked: every mutable field is guarded by `lock`; the serial disposables lock themselves.
final class RetryWhenSink<Element>: Sink<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let lock = NSRecursiveLock()
    private let attempt = SerialDisposable()
    private let resubscription = SerialDisposable()
    private let triggerSubscription = SingleAssignmentDisposable()
    private var errors: PublishSubject<any Error>?
    private var awaitingTrigger = false
    private var triggerEnded: Event<Element>?

    init(downstream: AnyObserver<Element>, source: Observable<Element>) {
        self.source = source
        super.init(downstream: downstream)
    }

    func start(errors: PublishSubject<any Error>, triggers: Observable<some Any>) {
        self.errors = errors
        triggerSubscription.setDisposable(triggers.subscribe(handler: { event in
            self.lock.withLock {
                switch event {
                case .next: self.onTrigger()
                case .error(let error): self.onTriggerEnded(.error(error))
                case .completed: self.onTriggerEnded(.completed)
                }
            }
        }))
        lock.withLock { subscribeSource() }
    }

    private func onTrigger() {
        guard awaitingTrigger else { return }
        resubscription.disposable = CurrentThreadScheduler.instance.schedule { [weak self] in
            guard let self else { return }
            self.lock.withLock {
                guard self.awaitingTrigger else { return }
                self.awaitingTrigger = false
                self.subscribeSource()
            }
        }
    }

    private func onTriggerEnded(_ event: Event<Element>) {
        if awaitingTrigger {
            stop(with: event)
        } else {
            triggerEnded = event
        }
    }

    private func subscribeSource() {
        guard !isStopped else { return }
        let subscription = SingleAssignmentDisposable()
        attempt.disposable = subscription
        subscription.setDisposable(source.subscribe(handler: { event in
            self.lock.withLock {
                switch event {
                case .next(let element): self.forwardNext(element)
                case .completed: self.stop(with: .completed)
                case .error(let error): self.onSourceError(error)
                }
            }
        }))
    }

    private func onSourceError(_ error: any Error) {
        guard !isStopped else { return }
        attempt.disposable = Disposables.create()
        if let triggerEnded {
            stop(with: triggerEnded)
            return
        }
        awaitingTrigger = true
        errors?.onNext(error)
    }

    override func dispose() {
        super.dispose()
        attempt.dispose()
        resubscription.dispose()
        triggerSubscription.dispose()
        lock.withLock { errors = nil }
    }
}
