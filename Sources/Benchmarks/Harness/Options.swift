/// Command-line options: `--json`, `--quick`, `--cpu-time`, `--filter PREFIX`, `--runs N`.
struct Options {
    var json = false
    var quick = false
    var cpuTime = false
    var filters: [String] = []
    var runs = 7

    /// Parses `arguments` (without the program name); `nil` with a message on a bad one.
    static func parse(_ arguments: [String]) -> Result<Options, OptionsError> {
        var options = Options()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--json": options.json = true
            case "--quick": options.quick = true
            case "--cpu-time": options.cpuTime = true
            case "--filter", "--runs":
                index += 1
                guard index < arguments.count else { return .failure(.missingValue(argument)) }
                let value = arguments[index]
                if argument == "--filter" {
                    options.filters.append(value)
                } else {
                    guard let runs = Int(value), runs >= 1 else { return .failure(.badValue(argument, value)) }
                    options.runs = runs
                }
            case "--help", "-h": return .failure(.help)
            default: return .failure(.unknown(argument))
            }
            index += 1
        }
        return .success(options)
    }

    /// `full` scaled to a tenth under `--quick`, never below 1.
    func size(_ full: Int) -> Int { quick ? max(1, full / 10) : full }

    /// Whether a workload or result named `name` is selected by the filters.
    func selects(_ name: String) -> Bool {
        filters.isEmpty || filters.contains { name.hasPrefix($0) || $0.hasPrefix(name) }
    }

    static let usage = """
        usage: benchmarks [--json] [--quick] [--cpu-time] [--filter PREFIX]... [--runs N]
          --json           one JSON object per line
          --quick          every workload at a tenth of its size (CI smoke run)
          --cpu-time       time the measuring thread's CPU time, not wall time (a loaded
                           machine; single-threaded rows a, c, d, g, k; Pillow's too)
          --filter PREFIX  only workloads whose name starts with PREFIX (e.g. a., b., h.)
          --runs N         timed runs per figure, median reported (default 7)
        """
}
