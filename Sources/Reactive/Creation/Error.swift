extension Observable {
    /// Fails at once with `error`.
    public static func error(_ error: any Error) -> Observable<Element> {
        Observable { observer in
            observer.on(.error(error))
            return Disposables.create()
        }
    }
}

extension Observable {
    /// Fails with `error` from an action on `scheduler` (no element crosses threads, so any
    /// element type will do).
    public static func error(_ error: any Error, scheduler: any SchedulerType) -> Observable<Element> {
        Observable { observer in scheduler.schedule { observer.on(.error(error)) } }
    }
}
