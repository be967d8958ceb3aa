// RxSwift's creation operators of `Single` and `Maybe` that run on a scheduler.

extension Single where Element: Sendable {
    /// Succeeds with `element` on `scheduler`.
    public static func just(_ element: Element, scheduler: any SchedulerType) -> Single<Element> {
        Single(unchecked: Observable.just(element).subscribe(on: scheduler))
    }
}

extension Single where Element: FixedWidthInteger & Sendable {
    /// Succeeds with 0 after `dueTime` on `scheduler`.
    ///
    /// ```swift
    /// Single<Int>.timer(.seconds(2), scheduler: MainScheduler.instance)
    /// ```
    public static func timer(_ dueTime: Duration, scheduler: any SchedulerType) -> Single<Element> {
        Single(unchecked: Observable.timer(dueTime, scheduler: scheduler))
    }
}

extension Maybe where Element: Sendable {
    /// Succeeds with `element` on `scheduler`.
    public static func just(_ element: Element, scheduler: any SchedulerType) -> Maybe<Element> {
        Maybe(unchecked: Observable.just(element).subscribe(on: scheduler))
    }
}

extension Maybe where Element: FixedWidthInteger & Sendable {
    /// Succeeds with 0 after `dueTime` on `scheduler`.
    public static func timer(_ dueTime: Duration, scheduler: any SchedulerType) -> Maybe<Element> {
        Maybe(unchecked: Observable.timer(dueTime, scheduler: scheduler))
    }
}
