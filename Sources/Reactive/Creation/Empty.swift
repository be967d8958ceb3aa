extension Observable {
    /// Completes at subscription without an element.
    public static func empty() -> Observable<Element> {
        Observable { observer in
            observer.on(.completed)
            return Disposables.create()
        }
    }
}

extension Observable where Element: Sendable {
    /// Completes from an action on `scheduler`.
    public static func empty(scheduler: any SchedulerType) -> Observable<Element> {
        scheduledLoop(on: scheduler, initialState: {}) { _ in .completed }
    }
}
