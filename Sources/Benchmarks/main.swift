import Foundation

let families = [
    Family(label: "a", run: PipelineBenchmarks.run),
    Family(label: "b", run: SubjectBenchmarks.runFanOut),
    Family(label: "c", run: SingleBenchmarks.run),
    Family(label: "d", run: SubjectBenchmarks.runSubscribeDispose),
    Family(label: "e", run: VirtualTimeBenchmarks.run),
    Family(label: "f", run: MemoryBenchmarks.run),
    Family(label: "f", run: RequestAllocationBenchmarks.run),
    Family(label: "g", run: RequestBenchmarks.run),
    Family(label: "h", run: HTTPBenchmarks.run),
    Family(label: "i", run: FeedBenchmarks.run),
    Family(label: "j", run: ChangesetBenchmarks.run),
    Family(label: "k", run: ImageDecodingBenchmarks.run),
    Family(label: "l", run: ThumbnailBenchmarks.run),
    Family(label: "m", run: ClientPipelineBenchmarks.run),
    Family(label: "n", run: SessionBenchmarks.run),
    Family(label: "n", run: CacheBenchmarks.run),
    Family(label: "n", run: SessionLayerBenchmarks.run),
    Family(label: "o", run: InflateBenchmarks.run),
    Family(label: "p", run: StreamingBenchmarks.run),
    Family(label: "p", run: ClientAloneBenchmarks.run),
    Family(label: "p", run: ClientOnLoopsBenchmarks.run),
    Family(label: "p", run: UploadBenchmarks.run),
]

/// The result labels each family can produce, for `--filter`.
let familyLabels: [String: [String]] = [
    "a": ["a.", "a2."], "b": ["b."], "c": ["c."], "d": ["d."], "e": ["e1.", "e2."], "f": ["f."],
    "g": ["g."], "h": ["h."], "i": ["i."], "j": ["j."], "k": ["k."], "l": ["l."], "m": ["m."],
    "n": ["n."], "o": ["o."], "p": ["p."],
]

switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let error):
    if case .help = error {
        print(Options.usage)
        exit(0)
    }
    FileHandle.standardError.write(Data((error.message + "\n" + Options.usage + "\n").utf8))
    exit(2)
case .success(let options):
    let reporter = Reporter(json: options.json)
    let context = BenchmarkContext(options: options, measurement: Measurement(runs: options.runs, warmups: 1, cpuTime: options.cpuTime),
                                   reporter: reporter)
    reporter.header(quick: options.quick, runs: options.runs, cpuTime: options.cpuTime)
    for family in families {
        let labels = familyLabels[family.label] ?? [family.label + "."]
        let selected = options.filters.isEmpty || labels.contains { label in
            options.filters.contains { $0.hasPrefix(label) || label.hasPrefix($0) }
        }
        if selected { family.run(context) }
    }
    reporter.footer()
}
