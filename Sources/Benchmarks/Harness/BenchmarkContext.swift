/// What every workload family gets: sizes, the timer and where results go.
struct BenchmarkContext {
    let options: Options
    let measurement: Measurement
    let reporter: Reporter

    /// `full` at a tenth under `--quick`.
    func size(_ full: Int) -> Int { options.size(full) }

    /// Whether the figure `name` is selected by `--filter`.
    func selects(_ name: String) -> Bool { options.selects(name) }

    /// Times `ours` and `baseline` (ns/op, interleaved runs) and reports the pair as `name`.
    func compare(_ name: String, operations: Int, baselineName: String,
                 ours: () -> Int, baseline: @escaping () -> Int) {
        guard selects(name) else { return }
        let (value, base) = measurement.compare(operations: operations, ours: ours, baseline: baseline)
        report(BenchmarkResult(name: name, unit: "ns/op", value: value, baseline: base, baselineName: baselineName))
    }

    func report(_ result: BenchmarkResult) {
        guard selects(result.name) else { return }
        reporter.report(result)
    }
}
