extension ObservableType where Element: Sendable {
    /// Subscribes to (and later disposes) the source on `scheduler`.
    ///
    /// ```swift
    /// heavyWork.subscribe(on: ConcurrentDispatchQueueScheduler(qos: .utility))
    /// ```
    public func subscribe(on scheduler: any SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let subscription = SingleAssignmentDisposable()
            let scheduled = scheduler.schedule {
                subscription.setDisposable(source.subscribe(observer))
            }
            let counted = CountedDisposable()
            return Disposables.create(with: {
                scheduled.dispose()
                scheduler.schedule { subscription.dispose() }
                counted.dispose()
            })
        }
    }
}

/// Counts itself in `Resources.total` while alive, for operators that need no sink of their own.
final class CountedDisposable: Disposable {
    init() { Resources.increment() }
    deinit { Resources.decrement() }
    func dispose() {}
}
