import Foundation

extension ObservableType where Element: Sendable {
    /// Emits the first element, then at most one per `dueTime`: with `latest`, the newest one
    /// seen during the window goes out when the window ends.
    ///
    /// ```swift
    /// taps.throttle(.seconds(1), scheduler: MainScheduler.instance)
    /// ```
    public func throttle(
        _ dueTime: Duration, latest: Bool = true, scheduler: any SchedulerType
    ) -> Observable<Element> {
        return lift { ThrottleSink(downstream: $0, dueTime: dueTime, latest: latest, scheduler: scheduler) }
    }
}

// @unchecked: every mutable field is guarded by the recursive `lock`, held while forwarding.
final class ThrottleSink<Element: Sendable>: TimedSink<Element>, OperatorSink, @unchecked Sendable {
    private let keepsLatest: Bool
    private let timer = SerialDisposable()
    private var lastSent: Date?
    private var waiting: Element?
    private var timerRunning = false
    private var completedWhileWaiting = false

    init(downstream: AnyObserver<Element>, dueTime: Duration, latest: Bool, scheduler: any SchedulerType) {
        self.keepsLatest = latest
        super.init(downstream: downstream, dueTime: dueTime, scheduler: scheduler)
    }

    func on(_ event: Event<Element>) {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            let now = scheduler.now
            let elapsed = lastSent.map { now.timeIntervalSince($0) } ?? .infinity
            if elapsed >= dueTime.timeInterval {
                lastSent = now
                waiting = nil
                downstream.on(.next(element))
                startWindow()
            } else if keepsLatest {
                waiting = element
                if !timerRunning { startWindow() }
            }
        case .error:
            stop(with: event)
        case .completed:
            if waiting != nil {
                completedWhileWaiting = true
            } else {
                stop(with: .completed)
            }
        }
    }

    private func startWindow() {
        timerRunning = true
        timer.disposable = scheduler.scheduleRelative(dueTime) { [weak self] in
            self?.windowEnded()
        }
    }

    private func windowEnded() {
        lock.lock()
        defer { lock.unlock() }
        timerRunning = false
        guard !isStopped else { return }
        if let waiting {
            self.waiting = nil
            lastSent = scheduler.now
            downstream.on(.next(waiting))
            if completedWhileWaiting {
                stop(with: .completed)
            } else {
                startWindow()
            }
        }
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
