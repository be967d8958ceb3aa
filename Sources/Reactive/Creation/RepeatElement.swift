extension Observable where Element: Sendable {
    /// `element` forever, each sent from its own action on `scheduler`; stop it with `take`
    /// or by disposing.
    ///
    /// ```swift
    /// Observable.repeatElement("ping").take(3)   // "ping", "ping", "ping", completed
    /// ```
    public static func repeatElement(
        _ element: Element, scheduler: any SchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        scheduledLoop(on: scheduler, initialState: {}) { _ in .next(element) }
    }
}
