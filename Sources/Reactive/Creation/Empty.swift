extension Observable {
    /// Completes at subscription without an element.
    public static func empty() -> Observable<Element> {
        Observable { observer in
            observer.on(.completed)
            return Disposables.create()
        }
    }
}

extension Observable {
    /// Completes from an action on `scheduler` (no element crosses threads, so any element
    /// type will do).
    public static func empty(scheduler: any SchedulerType) -> Observable<Element> {
        Observable { observer in scheduler.schedule { observer.on(.completed) } }
    }
}
