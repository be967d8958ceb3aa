import Locking
import Reactive
import Synchronization

/// An observer that records every event with the tick it arrived at.
///
/// ```swift
/// let observer = scheduler.createObserver(Int.self)
/// source.subscribe(observer)
/// scheduler.start()
/// observer.events   // [.next(210, 1), ...]
/// ```
// @unchecked: the recorded events are behind the Lock `lock`.
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable {
    private let scheduler: TestScheduler
    private let lock = Lock(())
    private var recorded: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// The events so far, in arrival order.
    public var events: [Recorded<Event<Element>>] {
        lock.withLock { _ in recorded }
    }

    /// Records `event` at the scheduler's current tick.
    public func on(_ event: Event<Element>) {
        let time = scheduler.clock
        lock.withLock { _ in recorded.append(Recorded(time: time, value: event)) }
    }
}
