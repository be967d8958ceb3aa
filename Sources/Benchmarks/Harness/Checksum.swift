import Synchronization

/// Folds every workload's result so the optimizer cannot drop the work; printed at the end.
enum Checksum {
    private static let value = Atomic<UInt64>(0)

    static func fold(_ x: Int) {
        let bits = UInt64(bitPattern: Int64(x))
        var current = value.load(ordering: .relaxed)
        while true {
            let next = (current &* 1_099_511_628_211) ^ bits
            let (exchanged, original) = value.compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    static var current: UInt64 { value.load(ordering: .relaxed) }
}

/// An accumulator for one synchronous workload, touched from the thread running it only.
// @unchecked: each instance is created, mutated and read on one thread, inside one timed run.
final class Tally: @unchecked Sendable {
    var value = 0

    @inline(never)
    func add(_ x: Int) { value &+= x }
}

/// Hides a value from the optimizer so closures and sizes stay opaque at compile time.
@inline(never)
func opaque<T>(_ value: T) -> T { value }
