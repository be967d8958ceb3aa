extension ObservableType where Element: Sendable {
    /// Subscribes to the source `dueTime` after the subscription, on `scheduler`; events then
    /// pass through unchanged. Disposing before `dueTime` cancels the subscription that was due.
    ///
    /// ```swift
    /// Observable.of(1, 2).delaySubscription(.seconds(1), scheduler: scheduler)   // subscribed 1 s later
    /// ```
    public func delaySubscription(_ dueTime: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = DelaySubscriptionSink(downstream: observer)
            sink.upstream.set(scheduler.scheduleRelative(dueTime) {
                sink.subscription.setDisposable(source.subscribe(handler: { sink.on($0) }))
            })
            return sink
        }
    }
}

// @unchecked: events arrive serialized from the one source subscription; the disposables lock themselves.
final class DelaySubscriptionSink<Element: Sendable>: Sink<Element>, @unchecked Sendable {
    /// The source subscription, made when the timer fires (`upstream` holds the timer).
    let subscription = SingleAssignmentDisposable()

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .error, .completed: stop(with: event)
        }
    }

    override func dispose() {
        super.dispose()
        subscription.dispose()
    }
}
