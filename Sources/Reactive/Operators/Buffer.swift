extension ObservableType where Element: Sendable {
    /// Collects elements into arrays, emitted when `count` are collected or `timeSpan` has
    /// passed since the previous array, whichever comes first (an empty array when nothing
    /// came). Completion emits what is collected, then completes; an error drops it.
    ///
    /// ```swift
    /// logLines.buffer(timeSpan: .seconds(1), count: 100, scheduler: scheduler)
    /// ```
    public func buffer(timeSpan: Duration, count: Int, scheduler: any SchedulerType) -> Observable<[Element]> {
        let source = asObservable()
        return Observable { observer in
            let sink = BufferSink<Element>(downstream: observer, timeSpan: timeSpan, count: count, scheduler: scheduler)
            sink.start()
            sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            return sink
        }
    }
}

/// RxSwift's rules: a timer per array, restarted whenever an array goes out; an array that
/// fills up goes out at once and cancels the pending timer.
// @unchecked: `buffer` and `windowID` are touched only inside `actions`, which run one at a time.
final class BufferSink<Element: Sendable>: Sink<[Element]>, @unchecked Sendable {
    private let timeSpan: Duration
    private let count: Int
    private let scheduler: any SchedulerType
    private let actions = ActionQueue()
    private let timer = SerialDisposable()
    private var buffer: [Element] = []
    private var windowID = 0

    init(downstream: AnyObserver<[Element]>, timeSpan: Duration, count: Int, scheduler: any SchedulerType) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func start() {
        actions.run { self.startTimer() }
    }

    func on(_ event: Event<Element>) {
        actions.run { self.handle(event) }
    }

    private func handle(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            buffer.append(element)
            if buffer.count == count { emitAndRestart() }
        case .error(let error):
            buffer = []
            stop(with: .error(error))
        case .completed:
            let last = buffer
            buffer = []
            downstream.on(.next(last))
            stop(with: .completed)
        }
    }

    private func emitAndRestart() {
        windowID &+= 1
        let full = buffer
        buffer = []
        downstream.on(.next(full))
        startTimer()
    }

    private func startTimer() {
        guard !isStopped else { return }
        let id = windowID
        timer.disposable = scheduler.scheduleRelative(timeSpan) { [weak self] in
            guard let self else { return }
            self.actions.run {
                guard !self.isStopped, id == self.windowID else { return }
                self.emitAndRestart()
            }
        }
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
