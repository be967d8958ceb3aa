import Foundation

/// Prints results as they come: a table, or one JSON object per line.
struct Reporter {
    let json: Bool

    func header(quick: Bool, runs: Int, cpuTime: Bool = false) {
        guard !json else { return }
        print("benchmarks: median of \(runs) runs after a warm-up\(quick ? ", quick sizes (a tenth)" : "")"
              + "\(cpuTime ? ", thread CPU time" : ""), "
              + "load average \(ResourceUsage.loadAverage) on \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print(pad("name", 30) + lpad("ours", 12) + lpad("baseline", 12) + lpad("ratio", 8) + "  unit                baseline is")
    }

    func report(_ result: BenchmarkResult) {
        if json {
            print(Self.jsonLine(result))
        } else {
            print(pad(result.name, 30) + lpad(Self.format(result.value), 12) + lpad(Self.format(result.baseline), 12)
                  + lpad(String(format: "%.2f", result.ratio), 8) + "  " + pad(result.unit, 20) + result.baselineName)
        }
        fflush(nil)
    }

    func footer() {
        let rss = ResourceUsage.peakResidentKiB
        if json {
            print("{\"name\": \"process.peak-rss\", \"unit\": \"KiB\", \"value\": \(rss), \"checksum\": \(Checksum.current), "
                  + "\"load_average\": \"\(ResourceUsage.loadAverage)\"}")
        } else {
            print("peak RSS \(rss) KiB, checksum \(String(Checksum.current, radix: 16)), load average \(ResourceUsage.loadAverage)")
        }
    }

    /// One result as a JSON object on one line, the `--json` format.
    static func jsonLine(_ result: BenchmarkResult) -> String {
        func number(_ x: Double) -> String { x.isFinite ? String(format: "%.4g", x) : "null" }
        let baselineName = result.baselineName.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
        return "{\"name\": \"\(result.name)\", \"unit\": \"\(result.unit)\", \"value\": \(number(result.value)), "
            + "\"baseline\": \(number(result.baseline)), \"ratio\": \(number(result.ratio)), "
            + "\"baseline_is\": \"\(baselineName)\", \"peak_rss_kib\": \(ResourceUsage.peakResidentKiB)}"
    }

    static func format(_ x: Double) -> String {
        guard x.isFinite else { return "-" }
        if abs(x) >= 100 { return String(format: "%.0f", x) }
        if abs(x) >= 10 { return String(format: "%.1f", x) }
        return String(format: "%.2f", x)
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    private func lpad(_ s: String, _ width: Int) -> String {
        s.count >= width ? " " + s : String(repeating: " ", count: width - s.count) + s
    }
}
