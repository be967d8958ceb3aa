extension Observable where Element: FixedWidthInteger & Sendable {
    /// Emits 0, 1, 2, ... every `period` on `scheduler`, starting one period after subscription.
    ///
    /// ```swift
    /// Observable<Int>.interval(.seconds(30), scheduler: MainScheduler.instance)
    /// ```
    public static func interval(_ period: Duration, scheduler: any SchedulerType) -> Observable<Element> {
        timer(period, period: period, scheduler: scheduler)
    }

    /// Emits 0 after `dueTime`, then completes; with a `period`, keeps emitting 1, 2, ... every period.
    public static func timer(
        _ dueTime: Duration, period: Duration? = nil, scheduler: any SchedulerType
    ) -> Observable<Element> {
        Observable { observer in
            let sink = TimerSink<Element>(downstream: observer)
            if let period {
                sink.upstream.set(scheduler.schedulePeriodic(startAfter: dueTime, period: period) {
                    sink.tick()
                })
            } else {
                sink.upstream.set(scheduler.scheduleRelative(dueTime) {
                    sink.tick()
                    sink.stop(with: .completed)
                })
            }
            return sink
        }
    }
}

// @unchecked: `count` is touched only by the scheduler's serialized ticks.
final class TimerSink<Element: FixedWidthInteger & Sendable>: Sink<Element>, @unchecked Sendable {
    private var count: Element = 0

    func tick() {
        guard !isStopped else { return }
        let value = count
        count &+= 1
        downstream.on(.next(value))
    }
}
