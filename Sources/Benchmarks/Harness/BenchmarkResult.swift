/// One figure: ours beside its plain-Swift baseline, measured in the same process.
struct BenchmarkResult {
    /// `label.what`, e.g. `a.map-filter-map`.
    let name: String
    /// `ns/op`, `bytes/subscription`, `req/s`, `MB/s`, `us`.
    let unit: String
    /// Our figure.
    let value: Double
    /// The baseline's figure in the same unit.
    let baseline: Double
    /// What the baseline is, in a few words (table only).
    let baselineName: String

    /// `value / baseline`: a cost ratio for ns, bytes and us (lower is better), a throughput
    /// fraction for req/s and MB/s (higher is better).
    var ratio: Double { value / baseline }
}
