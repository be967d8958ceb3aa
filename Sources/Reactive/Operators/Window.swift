import Synchronization

extension ObservableType where Element: Sendable {
    /// Splits the elements into windows, each an observable: a new window opens at
    /// subscription, when the current one has `count` elements, and when `timeSpan` has passed
    /// since it opened. The source's completion or error ends the current window and the result.
    ///
    /// As in RxSwift, a window still subscribed keeps the source running after the outer
    /// subscription is disposed; the source stops when the last of them is disposed too.
    /// ```swift
    /// clicks.window(timeSpan: .seconds(1), count: 10, scheduler: scheduler)
    ///     .flatMap { $0.toArray().asObservable() }
    /// ```
    public func window(timeSpan: Duration, count: Int, scheduler: any SchedulerType) -> Observable<Observable<Element>> {
        let source = asObservable()
        return Observable { observer in
            let sink = WindowSink<Element>(downstream: observer, timeSpan: timeSpan, count: count, scheduler: scheduler)
            sink.start()
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            return sink
        }
    }
}

// @unchecked: `current`, `count` and `windowID` are touched only inside `actions`, which run
// one at a time; `outerDisposed` is atomic.
final class WindowSink<Element: Sendable>: Sink<Observable<Element>>, @unchecked Sendable {
    private let timeSpan: Duration
    private let maxCount: Int
    private let scheduler: any SchedulerType
    private let actions = ActionQueue()
    private let timer = SerialDisposable()
    private let outerDisposed = Atomic<Bool>(false)
    private var refCount: RefCountDisposable?
    private var current = PublishSubject<Element>()
    private var count = 0
    private var windowID = 0

    init(downstream: AnyObserver<Observable<Element>>, timeSpan: Duration, count: Int, scheduler: any SchedulerType) {
        self.timeSpan = timeSpan
        self.maxCount = count
        self.scheduler = scheduler
        super.init(downstream: downstream)
        refCount = RefCountDisposable(Disposables.create { self.releaseSource() })
    }

    func start() {
        actions.run {
            self.forward(self.current)
            self.startTimer()
        }
    }

    func on(_ event: Event<Element>) {
        actions.run { self.handle(event) }
    }

    private func handle(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            current.onNext(element)
            count += 1
            if count == maxCount { openNextWindow() }
        case .error(let error):
            isStopped = true
            current.onError(error)
            finish(.error(error))
        case .completed:
            isStopped = true
            current.onCompleted()
            finish(.completed)
        }
    }

    private func openNextWindow() {
        count = 0
        windowID &+= 1
        current.onCompleted()
        current = PublishSubject<Element>()
        forward(current)
        startTimer()
    }

    /// Sends a window downstream, unless the outer subscription is gone; each subscription
    /// to the window holds a reference that keeps the source alive.
    private func forward(_ subject: PublishSubject<Element>) {
        guard !outerDisposed.load(ordering: .acquiring), let refCount else { return }
        let window = Observable<Element> { observer in
            let reference = refCount.retain()
            return Disposables.create(subject.subscribe(observer), reference)
        }
        downstream.on(.next(window))
    }

    private func finish(_ event: Event<Observable<Element>>) {
        if !outerDisposed.load(ordering: .acquiring) { downstream.on(event) }
        dispose()
        releaseSource()
    }

    private func startTimer() {
        guard !isStopped else { return }
        let id = windowID
        timer.disposable = scheduler.scheduleRelative(timeSpan) { [weak self] in
            guard let self else { return }
            self.actions.run {
                guard !self.isStopped, id == self.windowID else { return }
                self.openNextWindow()
            }
        }
    }

    private func releaseSource() {
        upstream.dispose()
        timer.dispose()
    }

    /// Disposes the outer subscription: no more windows go downstream, and the source stops
    /// once no window is subscribed.
    override func dispose() {
        outerDisposed.store(true, ordering: .releasing)
        refCount?.dispose()
    }
}
