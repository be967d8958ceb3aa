import Foundation

/// A virtual-time scheduler whose clock is a `Date` (RxSwift's `HistoricalScheduler`): for
/// replaying recorded data at its own timestamps, as fast as the work runs.
///
/// ```swift
/// let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
/// scheduler.scheduleRelative(.seconds(10)) { print(scheduler.now) }   // 1970-01-01 00:00:10
/// scheduler.start()
/// ```
/// Times are kept to the microsecond.
public final class HistoricalScheduler: SchedulerType {
    /// The engine: a virtual clock of microseconds since 1970.
    /// The microsecond clock underneath; `throttle` reads its ticks, which `now` rounds.
    let base: VirtualTimeScheduler

    /// A scheduler whose clock starts at `initialClock`.
    public init(initialClock: Date = Date(timeIntervalSince1970: 0)) {
        base = VirtualTimeScheduler(initialClock: Self.ticks(initialClock), resolution: .microseconds(1))
    }

    private static func ticks(_ date: Date) -> Int {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        return micros >= Double(Int.max) ? Int.max : micros <= Double(Int.min) ? Int.min : Int(micros)
    }

    /// The current virtual time.
    public var clock: Date { Date(timeIntervalSince1970: Double(base.clock) / 1_000_000) }

    /// The current virtual time (the same as `clock`).
    public var now: Date { clock }

    /// Whether `start()` or `advanceTo(_:)` is running work.
    public var isRunning: Bool { base.isRunning }

    /// Runs `action` at the current virtual time, after work already due then.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        base.schedule(action)
    }

    /// Runs `action` `dueTime` after the current virtual time.
    @discardableResult
    public func scheduleRelative(_ dueTime: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        base.scheduleRelative(dueTime, action: action)
    }

    /// Runs `action` after `startAfter`, then every `period` of virtual time.
    @discardableResult
    public func schedulePeriodic(
        startAfter: Duration, period: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        base.schedulePeriodic(startAfter: startAfter, period: period, action: action)
    }

    /// Runs `action` at `time`, or at the current time when `time` has passed.
    @discardableResult
    public func scheduleAbsolute(_ time: Date, action: @escaping @Sendable () -> Void) -> any Disposable {
        base.scheduleAbsolute(Self.ticks(time), action: action)
    }

    /// Runs every queued item, moving the clock to each one's time, until none is left or `stop()`.
    public func start() { base.start() }

    /// Runs the items due at or before `time`, then sets the clock to `time` (never backwards).
    public func advanceTo(_ time: Date) { base.advanceTo(Self.ticks(time)) }

    /// Moves the clock `interval` seconds ahead without running the work due meanwhile.
    public func sleep(_ interval: TimeInterval) {
        base.sleep(Self.ticks(Date(timeIntervalSince1970: interval)))
    }

    /// Makes a running `start()` or `advanceTo(_:)` return after the current item.
    public func stop() { base.stop() }
}
