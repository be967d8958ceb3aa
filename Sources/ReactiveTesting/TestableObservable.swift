import Locking
import Reactive
import Synchronization

/// A scripted observable on a `TestScheduler` that records its `subscriptions`.
///
/// Hot ones play their events at absolute ticks to whoever is subscribed then; cold ones
/// play them relative to each subscription, scheduled when it happens. Its elements are
/// `Sendable`, because the script is played on whichever thread runs the scheduler.
// @unchecked: mutable state is behind the Lock `lock`; the elements are Sendable.
public final class TestableObservable<Element: Sendable>: ObservableType, @unchecked Sendable {
    enum Kind { case hot, cold }

    /// The script, as given.
    public let recordedEvents: [Recorded<Event<Element>>]
    private let scheduler: TestScheduler
    private let kind: Kind
    private let lock = Lock(())
    private var recordedSubscriptions: [Subscription] = []
    private var observers: [Int: AnyObserver<Element>] = [:]
    private var nextID = 0

    init(kind: Kind, events: [Recorded<Event<Element>>], scheduler: TestScheduler) {
        self.kind = kind
        self.recordedEvents = events
        self.scheduler = scheduler
        if kind == .hot {
            for (index, recorded) in events.enumerated() {
                scheduler.scheduleAbsolute(recorded.time) { [weak self] in
                    self?.broadcast(index: index)
                }
            }
        }
    }

    /// Every subscription so far, in order, with its disposal tick once disposed.
    public var subscriptions: [Subscription] {
        lock.withLock { _ in recordedSubscriptions }
    }

    private func broadcast(index: Int) {
        let event = recordedEvents[index].value
        let targets = lock.withLock { _ in observers.sorted { $0.key < $1.key }.map(\.value) }
        for observer in targets { observer.on(event) }
    }

    /// Subscribes `observer`, recording the tick.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
        where Observer.Element == Element {
        let observer = AnyObserver(observer)
        let start = scheduler.clock
        let (index, id) = lock.withLock { _ -> (Int, Int) in
            recordedSubscriptions.append(Subscription(start))
            let id = nextID
            nextID += 1
            if kind == .hot { observers[id] = observer }
            return (recordedSubscriptions.count - 1, id)
        }
        let scheduled = CompositeDisposable()
        if kind == .cold {
            for (index, recorded) in recordedEvents.enumerated() {
                scheduled.insert(scheduler.scheduleAbsolute(start + recorded.time) { [self] in
                    observer.on(recordedEvents[index].value)
                })
            }
        }
        return Disposables.create(with: { [weak self] in
            scheduled.dispose()
            self?.unsubscribe(index: index, id: id)
        })
    }

    private func unsubscribe(index: Int, id: Int) {
        let end = scheduler.clock
        lock.withLock { _ in
            observers[id] = nil
            let started = recordedSubscriptions[index].subscribe
            recordedSubscriptions[index] = Subscription(started, end)
        }
    }
}
