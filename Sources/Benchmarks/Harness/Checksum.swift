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
