import Reactive

/// f: bytes the allocator holds per live subscription, 100k subscriptions on one subject.
enum MemoryBenchmarks {
    static func run(_ context: BenchmarkContext) {
        let count = context.size(100_000)
        guard context.selects("f.bytes-per-subscription") else { return }
        var ours: [Double] = []
        var baseline: [Double] = []
        _ = subscriptions(count)
        _ = closures(count)
        for _ in 0..<context.options.runs {
            ours.append(subscriptions(count))
            baseline.append(closures(count))
        }
        context.report(BenchmarkResult(
            name: "f.bytes-per-subscription", unit: "bytes/subscription",
            value: Measurement.median(ours), baseline: Measurement.median(baseline),
            baselineName: "array of capturing closures"))
    }

    /// malloc'd bytes per subscription, the subscriptions' disposables included but not the
    /// array holding them (reserved before the first reading).
    private static func subscriptions(_ count: Int) -> Double {
        let subject = PublishSubject<Int>()
        let tally = Tally()
        var disposables: [any Disposable] = []
        disposables.reserveCapacity(count)
        let before = ResourceUsage.allocatedBytes
        for index in 0..<count {
            disposables.append(subject.subscribe(onNext: { tally.add($0 &+ index) }))
        }
        let after = ResourceUsage.allocatedBytes
        subject.onNext(1)
        disposables.forEach { $0.dispose() }
        Checksum.fold(tally.value)
        return Double(after - before) / Double(count)
    }

    /// malloc'd bytes per closure held in a growing array, each capturing the same as ours.
    private static func closures(_ count: Int) -> Double {
        let tally = Tally()
        let before = ResourceUsage.allocatedBytes
        var closures: [(Int) -> Void] = []
        for index in 0..<count {
            closures.append(opaque { tally.add($0 &+ index) })
        }
        let after = ResourceUsage.allocatedBytes
        for closure in closures { closure(1) }
        Checksum.fold(tally.value)
        return Double(after - before) / Double(count)
    }
}
