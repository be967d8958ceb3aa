extension Infallible {
    /// Emits `element` and completes.
    public static func just(_ element: Element) -> Infallible<Element> { Infallible(.just(element)) }

    /// Emits `element` on `scheduler` and completes.
    public static func just(_ element: Element, scheduler: any SchedulerType) -> Infallible<Element>
        where Element: Sendable {
        Infallible(.just(element, scheduler: scheduler))
    }

    /// Emits `elements` in order and completes.
    public static func of(_ elements: Element...) -> Infallible<Element> { Infallible(.from(elements)) }

    /// Emits the elements of `sequence` in order and completes.
    public static func from<S: Sequence>(_ sequence: S) -> Infallible<Element> where S.Element == Element {
        Infallible(.from(sequence))
    }

    /// Emits `optional`'s value when there is one, then completes.
    public static func from(optional: Element?) -> Infallible<Element> where Element: Sendable {
        Infallible(.from(optional: optional))
    }

    /// Completes at once.
    public static func empty() -> Infallible<Element> { Infallible(.empty()) }

    /// Never emits and never ends.
    public static func never() -> Infallible<Element> { Infallible(.never()) }

    /// Calls `factory` on each subscription and runs what it returns.
    public static func deferred(_ factory: @escaping @Sendable () -> Infallible<Element>) -> Infallible<Element> {
        Infallible(.deferred { factory().asObservable() })
    }

    /// `element` forever, one action on `scheduler` each; stop it with `take` or by disposing.
    public static func repeatElement(
        _ element: Element, scheduler: any SchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> where Element: Sendable {
        Infallible(.repeatElement(element, scheduler: scheduler))
    }
}

extension Infallible where Element: BinaryInteger & Sendable {
    /// `count` consecutive integers from `start`, then completion.
    public static func range(start: Element, count: Element) -> Infallible<Element> {
        Infallible(.range(start: start, count: count))
    }
}

extension Infallible where Element: FixedWidthInteger & Sendable {
    /// Emits 0, 1, 2, ... every `period` on `scheduler`, starting one period after subscription.
    public static func interval(_ period: Duration, scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(.interval(period, scheduler: scheduler))
    }

    /// Emits 0 after `dueTime`, then completes; with a `period`, keeps emitting every period.
    public static func timer(
        _ dueTime: Duration, period: Duration? = nil, scheduler: any SchedulerType
    ) -> Infallible<Element> {
        Infallible(.timer(dueTime, period: period, scheduler: scheduler))
    }
}
