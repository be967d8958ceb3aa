import Foundation

extension ObservableType {
    /// Shares one upstream subscription among all subscribers while at least one is subscribed;
    /// late subscribers get the last `replay` elements first.
    ///
    /// ```swift
    /// let shared = request.share(replay: 1)
    /// ```
    public func share(replay: Int = 0) -> Observable<Element> {
        let connection = ShareConnection(source: asObservable(), replay: replay)
        return Observable { observer in connection.subscribe(observer) }
    }
}

/// The shared state of one `share(replay:)` operator: the subject and the upstream while connected.
// @unchecked: `subject`, `count` and `upstream` are guarded by the recursive `lock`.
final class ShareConnection<Element>: @unchecked Sendable {
    private let source: Observable<Element>
    private let replay: Int
    private let lock = NSRecursiveLock()
    private var subject: ReplaySubject<Element>?
    private var upstream: SingleAssignmentDisposable?
    private var count = 0

    init(source: Observable<Element>, replay: Int) {
        self.source = source
        self.replay = replay
    }

    /// Bookkeeping happens under the lock; subscribing to the subject and connecting upstream
    /// happen outside it, so a delivery under way cannot deadlock against a new subscriber.
    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        let (subject, connection) = lock.withLock { () -> (ReplaySubject<Element>, SingleAssignmentDisposable?) in
            let subject: ReplaySubject<Element>
            if let current = self.subject {
                subject = current
            } else {
                subject = ReplaySubject.create(bufferSize: max(replay, 0))
                self.subject = subject
            }
            count += 1
            guard count == 1 else { return (subject, nil) }
            let connection = SingleAssignmentDisposable()
            upstream = connection
            return (subject, connection)
        }
        let subscription = subject.subscribe(observer)
        connection?.setDisposable(source.subscribe(handler: { [weak self] event in
            self?.forward(event, to: subject)
        }))
        return Disposables.create(with: { [weak self] in
            subscription.dispose()
            self?.release(subject)
        })
    }

    private func forward(_ event: Event<Element>, to subject: ReplaySubject<Element>) {
        if event.isStopEvent {
            lock.withLock {
                if self.subject === subject {
                    self.subject = nil
                    upstream = nil
                    count = 0
                }
            }
        }
        subject.on(event)
    }

    private func release(_ subject: ReplaySubject<Element>) {
        lock.lock()
        defer { lock.unlock() }
        guard self.subject === subject else { return }
        count -= 1
        if count == 0 {
            upstream?.dispose()
            upstream = nil
            self.subject = nil
        }
    }
}
