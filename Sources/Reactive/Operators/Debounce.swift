import Foundation

extension ObservableType where Element: Sendable {
    /// Emits an element only after `dueTime` passes without another one; completion emits the
    /// element still waiting first.
    ///
    /// ```swift
    /// searchText.debounce(.milliseconds(300), scheduler: MainScheduler.instance)
    /// ```
    public func debounce(_ dueTime: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        return lift { DebounceSink(downstream: $0, dueTime: dueTime, scheduler: scheduler) }
    }
}

// @unchecked: `waiting` and `generation` are guarded by the recursive `lock`, held while forwarding.
final class DebounceSink<Element: Sendable>: TimedSink<Element>, OperatorSink, @unchecked Sendable {
    private let timer = SerialDisposable()
    private var waiting: Element?
    private var generation = 0

    func on(_ event: Event<Element>) {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            generation += 1
            let current = generation
            waiting = element
            timer.disposable = scheduler.scheduleRelative(dueTime) { [weak self] in
                self?.fire(generation: current)
            }
        case .error:
            waiting = nil
            stop(with: event)
        case .completed:
            if let waiting {
                self.waiting = nil
                downstream.on(.next(waiting))
            }
            stop(with: .completed)
        }
    }

    private func fire(generation: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped, generation == self.generation, let waiting else { return }
        self.waiting = nil
        downstream.on(.next(waiting))
    }

    override func dispose() {
        super.dispose()
        timer.dispose()
    }
}
