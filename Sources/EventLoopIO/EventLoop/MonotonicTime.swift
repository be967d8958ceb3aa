/// A moment on `ContinuousClock`, as nanoseconds since the process first read the clock here.
///
/// The package keeps its moments (deadlines, timers, timings) in this plain value and converts
/// at the public API's edges: `ContinuousClock.Instant`'s layout is hidden by the standard
/// library, so every struct or enum that holds one is copied, compared and destroyed through the
/// runtime instead of in place.
public struct MonotonicTime: Comparable, Hashable, Sendable {
    /// Nanoseconds since the clock's origin (negative before it).
    public var nanoseconds: Int64

    /// The moment `nanoseconds` after the clock's origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The moment `instant` names (to the nanosecond; clamped far beyond the process's life).
    public init(_ instant: ContinuousClock.Instant) {
        nanoseconds = Self.nanoseconds(in: Self.origin.duration(to: instant))
    }

    /// Now.
    public static var now: MonotonicTime { MonotonicTime(.now) }

    /// The same moment as a `ContinuousClock.Instant`.
    public var instant: ContinuousClock.Instant {
        Self.origin.advanced(by: .nanoseconds(nanoseconds))
    }

    /// The moment `duration` later (clamped to `limit` either way, far beyond the process's life).
    public static func + (moment: MonotonicTime, duration: Duration) -> MonotonicTime {
        let sum = moment.nanoseconds.addingReportingOverflow(nanoseconds(in: duration))
        guard !sum.overflow else { return MonotonicTime(nanoseconds: duration < .zero ? -limit : limit) }
        return MonotonicTime(nanoseconds: min(max(sum.partialValue, -limit), limit))
    }

    /// The time from `earlier` to `later`.
    public static func - (later: MonotonicTime, earlier: MonotonicTime) -> Duration {
        .nanoseconds(later.nanoseconds &- earlier.nanoseconds)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// Where the clock starts.
    private static let origin = ContinuousClock.now

    /// The farthest a moment or a duration goes either way: half of `Int64`'s range in
    /// nanoseconds (about 146 years), so that adding two never overflows.
    public static let limit = Int64.max / 2

    /// `duration` in nanoseconds, clamped to `limit` either way.
    static func nanoseconds(in duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let whole = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !whole.overflow, whole.partialValue.magnitude < UInt64(limit) else { return seconds < 0 ? -limit : limit }
        return whole.partialValue + attoseconds / 1_000_000_000
    }
}
