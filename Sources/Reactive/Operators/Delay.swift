import Foundation

extension ObservableType where Element: Sendable {
    /// Shifts every element and the completion by `dueTime` on `scheduler`, in order; an error
    /// goes downstream at once and drops what is still pending.
    ///
    /// ```swift
    /// Observable.of(1, 2).delay(.seconds(1), scheduler: scheduler)
    /// ```
    public func delay(_ dueTime: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        return lift { DelaySink(downstream: $0, dueTime: dueTime, scheduler: scheduler) }
    }
}

// @unchecked: `pending` is guarded by the recursive `lock`, held while forwarding.
final class DelaySink<Element: Sendable>: TimedSink<Element>, OperatorSink, @unchecked Sendable {
    private let timers = CompositeDisposable()
    private var pending: [Event<Element>] = []
    private var head = 0

    func on(_ event: Event<Element>) {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return }
        if case .error = event {
            pending.removeAll()
            stop(with: event)
            return
        }
        pending.append(event)
        let timer = SingleAssignmentDisposable()
        guard let key = timers.insert(timer) else { return }
        timer.setDisposable(scheduler.scheduleRelative(dueTime) { [weak self] in
            self?.deliverNext(key: key)
        })
    }

    /// Each timer delivers the oldest pending event, so order holds on any scheduler.
    private func deliverNext(key: CompositeDisposable.DisposeKey) {
        lock.lock()
        defer { lock.unlock() }
        timers.remove(for: key)
        guard !isStopped, head < pending.count else { return }
        let event = pending[head]
        head += 1
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        }
        switch event {
        case .next(let element): downstream.on(.next(element))
        case .error, .completed: stop(with: event)
        }
    }

    override func dispose() {
        super.dispose()
        timers.dispose()
    }
}
