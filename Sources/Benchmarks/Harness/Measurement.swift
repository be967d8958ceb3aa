/// Times repeated runs: warm-up, then the median of `runs`, ours and the baseline interleaved.
struct Measurement {
    let runs: Int
    let warmups: Int
    /// Time the measuring thread's CPU time instead of wall time (`--cpu-time`).
    var cpuTime = false

    /// Nanoseconds per operation (median) of `body`, which does `operations` operations and
    /// returns a checksum.
    func nanosecondsPerOperation(operations: Int, _ body: () -> Int) -> Double {
        compare(operations: operations, ours: body, baseline: nil).ours
    }

    /// Median nanoseconds per operation of `ours` and of `baseline`, alternating runs so
    /// drift (frequency, neighbours) hits both alike.
    func compare(operations: Int, ours: () -> Int, baseline: (() -> Int)?) -> (ours: Double, baseline: Double) {
        for _ in 0..<warmups {
            Checksum.fold(ours())
            if let baseline { Checksum.fold(baseline()) }
        }
        var oursSamples: [Double] = []
        var baselineSamples: [Double] = []
        for _ in 0..<runs {
            oursSamples.append(time(operations: operations, ours))
            if let baseline { baselineSamples.append(time(operations: operations, baseline)) }
        }
        return (Self.median(oursSamples), baselineSamples.isEmpty ? .nan : Self.median(baselineSamples))
    }

    func time(operations: Int, _ body: () -> Int) -> Double {
        let now = cpuTime ? ThreadCPUClock.now : MonotonicClock.now
        let start = now()
        let result = body()
        let elapsed = now() &- start
        Checksum.fold(result)
        return Double(elapsed) / Double(max(1, operations))
    }

    static func median(_ samples: [Double]) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The value at `fraction` (0...1) of sorted `samples`, nearest rank.
    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
