import PhotoFeed
import Reactive

extension PhotoFeedStore {
    /// A load every `period` (`Observable.interval` + `flatMapLatest`: a tick cancels a load still
    /// running), each answered as a `Result` so one failure does not end the watch.
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
            .flatMapLatest { [self] _ in
                load(request())
                    .map { Result<Photo, any Error>.success($0) }
                    .catch { .just(.failure($0)) }
                    .asObservable()
            }
    }
}
