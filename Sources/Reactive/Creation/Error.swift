extension Observable {
    /// Fails at once with `error`.
    public static func error(_ error: any Error) -> Observable<Element> {
        Observable { observer in
            observer.on(.error(error))
            return Disposables.create()
        }
    }
}

extension Observable where Element: Sendable {
    /// Fails with `error` from an action on `scheduler`.
    public static func error(_ error: any Error, scheduler: any SchedulerType) -> Observable<Element> {
        scheduledLoop(on: scheduler, initialState: {}) { _ in .error(error) }
    }
}
