/// A sequence that never fails, delivers on its strategy's scheduler and shares one upstream
/// subscription among its subscribers: the base of RxCocoa's `Driver` and `Signal`.
///
/// Each operator on it shares its result again, as RxCocoa does, so every step of a chain is
/// computed once for all subscribers.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element: Sendable>:
    SharedSequenceConvertibleType {
    let source: Observable<Element>

    /// Wraps `source`, which must already never fail and deliver on the scheduler, and shares it.
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// Wraps `source` as it is: for sources that need no sharing (`just`, `empty`, `never`).
    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// The shared observable.
    public func asObservable() -> Observable<Element> { source }

    /// `self`, for generic code over `SharedSequenceConvertibleType`.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }
}

/// How a `SharedSequence` delivers and shares: `DriverSharingStrategy`, `SignalSharingStrategy`.
public protocol SharingStrategyProtocol: SendableMetatype {
    /// The scheduler every event is delivered on (`SharingScheduler.make()`, the main scheduler
    /// unless mocked).
    static var scheduler: any SchedulerType { get }

    /// Shares `source` among subscribers.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// Anything that can be seen as a `SharedSequence`: `Driver`, `Signal`.
public protocol SharedSequenceConvertibleType<Element>: ObservableConvertibleType where Element: Sendable {
    /// The sharing strategy of the sequence.
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// This sequence as a `SharedSequence`.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequence {
    /// Completes at once, on the strategy's scheduler.
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.empty().subscribe(on: SharingStrategy.scheduler))
    }

    /// Never emits and never ends.
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never())
    }

    /// Emits `element` and completes, on the strategy's scheduler.
    ///
    /// ```swift
    /// Driver.just("Loading…")
    /// ```
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.just(element).subscribe(on: SharingStrategy.scheduler))
    }

    /// Calls `factory` on each subscription and shares what it returns.
    public static func deferred(
        _ factory: @escaping @Sendable () -> SharedSequence<SharingStrategy, Element>
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.deferred { factory().asObservable() })
    }

    /// Emits `elements` in order and completes, on the strategy's scheduler.
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        from(elements)
    }

    /// Emits the elements of `array` in order and completes, on the strategy's scheduler.
    public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
        // RxCocoa schedules each element on its own; here one scheduled run emits them all,
        // which keeps them on the same scheduler, in order.
        SharedSequence(raw: Observable.from(array).subscribe(on: SharingStrategy.scheduler))
    }

    /// Emits the elements of `sequence` in order and completes, on the strategy's scheduler.
    public static func from<Elements: Sequence>(_ sequence: Elements) -> SharedSequence<SharingStrategy, Element>
        where Elements.Element == Element {
        from(Array(sequence))
    }

    /// Emits the wrapped value, if any, and completes, on the strategy's scheduler.
    public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
        from(optional.map { [$0] } ?? [])
    }
}

extension SharedSequence where Element: FixedWidthInteger {
    /// Emits 0, 1, 2, ... every `period` on the strategy's scheduler.
    public static func interval(_ period: Duration) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// Emits 0 after `dueTime`, then 1, 2, ... every `period`, on the strategy's scheduler.
    public static func timer(_ dueTime: Duration, period: Duration) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}
