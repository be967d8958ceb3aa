import Foundation

/// `Duration` as the clocks and Dispatch under the schedulers take it.
extension Duration {
    /// The duration in seconds, as a `TimeInterval` (visible to the package's modules).
    package var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds, clamped to zero or more.
    var clampedNanoseconds: Int {
        let parts = components
        let nanos = Double(parts.seconds) * 1e9 + Double(parts.attoseconds) / 1e9
        if nanos <= 0 { return 0 }
        if nanos >= Double(Int.max) { return Int.max }
        return Int(nanos)
    }
}
