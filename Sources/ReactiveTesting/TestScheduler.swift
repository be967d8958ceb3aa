import Locking
import Reactive
import Synchronization

/// A virtual-time scheduler for timeline tests, in RxTest's style: one tick is one second
/// of `Duration` unless another `resolution` is given.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
/// let res = scheduler.start { xs.map { $0 * 2 } }
/// // res.events == [.next(210, 4), .completed(300)]; xs.subscriptions == [Subscription(200, 300)]
/// ```
// @unchecked: all scheduling state lives in `VirtualTimeScheduler`, which locks it.
public final class TestScheduler: VirtualTimeScheduler, @unchecked Sendable {
    /// A scheduler at `initialClock`, each tick lasting `resolution`. With
    /// `simulateProcessingDelay`, work scheduled relative to now (`schedule`, `scheduleRelative`,
    /// a periodic start) for a tick at or before the current one runs one tick later, as in RxTest
    /// (so `subscribe(on: scheduler)` inside `start` subscribes at 201), and `observe(on:)` and
    /// `delay` take one tick-adjusted step per event as RxSwift's do; work at an absolute tick
    /// (`scheduleAt`, the test observables' events) keeps its tick, as RxTest's does. By default
    /// no work is delayed.
    public override init(initialClock: Int = 0, resolution: Duration = .seconds(1), simulateProcessingDelay: Bool = false) {
        super.init(initialClock: initialClock, resolution: resolution, simulateProcessingDelay: simulateProcessingDelay)
    }

    /// An observable that plays `events` at their absolute ticks to whoever is subscribed.
    public func createHotObservable<Element: Sendable>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        TestableObservable(kind: .hot, events: events, scheduler: self)
    }

    /// An observable that plays `events` relative to each subscription.
    public func createColdObservable<Element: Sendable>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        TestableObservable(kind: .cold, events: events, scheduler: self)
    }

    /// An observer that records events with their ticks.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Runs `action` at tick `time`.
    @discardableResult
    public func scheduleAt(_ time: Int, action: @escaping @Sendable () -> Void) -> any Disposable {
        scheduleAbsolute(time, action: action)
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at `disposed`,
    /// runs the scheduler, and returns what the subscription saw.
    public func start<Source: ObservableConvertibleType>(
        created: Int = 100, subscribed: Int = 200, disposed: Int = 1000,
        create: @escaping @Sendable () -> Source
    ) -> TestableObserver<Source.Element> {
        let observer = createObserver(Source.Element.self)
        let run = StartRun<Source>()
        scheduleAbsolute(created) { run.source.withLock { $0 = UncheckedSource(create()) } }
        scheduleAbsolute(subscribed) {
            guard let source = run.source.withLock({ $0 }) else { return }
            let subscription = source.value.asObservable().subscribe(observer)
            run.subscription.withLock { $0 = subscription }
        }
        scheduleAbsolute(disposed) {
            run.subscription.withLock { $0 }?.dispose()
            run.source.withLock { $0 = nil }
        }
        start()
        return observer
    }

    /// RxTest's unlabelled `start(_:)`: `start(created:subscribed:disposed:create:)` at 100, 200 and 1000.
    ///
    /// ```swift
    /// let res = scheduler.start(makeSequence)
    /// ```
    @_disfavoredOverload
    public func start<Source: ObservableConvertibleType>(
        _ create: @escaping @Sendable () -> Source
    ) -> TestableObserver<Source.Element> {
        start(created: 100, subscribed: 200, disposed: 1000, create: create)
    }
}

/// The state of one `start(created:subscribed:disposed:create:)` run.
final class StartRun<Source: ObservableConvertibleType>: Sendable {
    let source = Lock<UncheckedSource<Source>?>(nil)
    let subscription = Lock<(any Disposable)?>(nil)
}

/// Carries the created sequence between the run's scheduled steps.
struct UncheckedSource<Source: ObservableConvertibleType>: Sendable {
    let value: Source
    init(_ value: Source) { self.value = value }
}
