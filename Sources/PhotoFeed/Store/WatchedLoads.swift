import Reactive

extension PhotoFeedStore {
    /// A load every `period` (`Observable.interval` + `flatMapLatest`: a tick cancels a load still
    /// running), each answered as a `Result` so one failure does not end the watch. With
    /// `startImmediately` the first load starts at subscription instead of after one period.
    ///
    /// ```swift
    /// store.watchedLoads(every: .seconds(30), scheduler: scheduler) { PhotoRequest(tags: "cats") }
    /// ```
    public func watchedLoads(
        every period: Duration, scheduler: any SchedulerType, startImmediately: Bool = false,
        request: @escaping @Sendable () -> PhotoRequest
    ) -> Observable<Result<Photo, any Error>> {
        let ticks = Observable<Int>.interval(period, scheduler: scheduler)
        return (startImmediately ? ticks.startWith(-1) : ticks)
            .flatMapLatest { [self] _ in loadResult(request()) }
    }

    /// ``load(_:)`` answered as a one-element sequence of its `Result`, never failing, so a
    /// sequence of loads (a watch, a run of pages) goes on after one of them fails.
    ///
    /// ```swift
    /// Observable.range(start: 0, count: 3).concatMap { _ in store.loadResult() }
    /// ```
    public func loadResult(_ request: PhotoRequest = PhotoRequest()) -> Observable<Result<Photo, any Error>> {
        load(request)
            .map { Result<Photo, any Error>.success($0) }
            .catch { .just(.failure($0)) }
            .asObservable()
    }
}
