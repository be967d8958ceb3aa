extension Observable {
    /// One element, then completion.
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        Observable { observer in
            observer.on(.next(element))
            observer.on(.completed)
            return Disposables.create()
        }
    }
}

extension Observable where Element: Sendable {
    /// One element, then completion, each sent from its own action on `scheduler`.
    ///
    /// ```swift
    /// Observable.just(1, scheduler: MainScheduler.instance)
    /// ```
    public static func just(_ element: Element, scheduler: any SchedulerType) -> Observable<Element> {
        scheduledLoop(on: scheduler, initialState: { false }) { sent in
            guard !sent else { return .completed }
            sent = true
            return .next(element)
        }
    }
}
