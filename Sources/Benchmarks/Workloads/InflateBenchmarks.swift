import Foundation
import HTTPWire

/// o: gzip decoding, `Inflater.decode` (the buffered path; `InflateStream`, which a streamed
/// response decodes with, is the same decoder fed in pieces) of a real text compressed by gzip -9
/// (the inflater tests' fixture), in MB/s of decoded output. The baseline is one pass any
/// consumer makes over the output: a copy and a sum of its bytes. The `.vs-zlib` row puts ours
/// beside zlib's inflate on the same bytes (through Python's zlib module, timed just before ours
/// in the same run), skipped with a note when python3 is absent.
enum InflateBenchmarks {
    /// The inflater tests' fixtures, found from this file's path.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/HTTPWireTests/Fixtures/compression")

    /// The script timing zlib (`scripts/bench-zlib-inflate.py`).
    static let script = fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/bench-zlib-inflate.py")

    static func run(_ context: BenchmarkContext) {
        gunzip(context, name: "o.gunzip-text-155k", file: "plain.gzip-9-named.gz")
    }

    private static func gunzip(_ context: BenchmarkContext, name: String, file: String) {
        guard context.selects(name) else { return }
        guard let data = try? Data(contentsOf: fixtures.appendingPathComponent(file)),
              case let input = [UInt8](data), let output = try? Inflater.decode(input, coding: .gzip, limit: 1 << 30) else {
            FileHandle.standardError.write(Data("\(name): \(file) not found or not decodable in \(fixtures.path)\n".utf8))
            return
        }
        let reference = zlib(context, name: name)
        let decodes = context.size(100)
        let result = context.measurement.compare(operations: decodes, ours: {
            var total = 0
            for _ in 0..<decodes { total &+= (try? Inflater.decode(opaque(input), coding: .gzip, limit: 1 << 30))?.count ?? -1 }
            return total
        }, baseline: {
            var total = 0
            for _ in 0..<decodes {
                let copy = Array(opaque(output))
                total &+= copy.reduce(0) { $0 &+ Int($1) }
            }
            return total
        })
        func rate(_ nanoseconds: Double) -> Double { Double(output.count) / (nanoseconds / 1e9) / 1e6 }
        context.report(BenchmarkResult(name: name, unit: "MB/s", value: rate(result.ours), baseline: rate(result.baseline),
                                       baselineName: "a copy and a byte sum of the output"))
        if let reference {
            context.report(BenchmarkResult(name: name + vsSuffix, unit: "MB/s", value: rate(result.ours), baseline: reference,
                                           baselineName: "zlib's inflate via Python, same run"))
        }
    }

    private static let vsSuffix = ".vs-zlib"

    /// zlib's figure for `name`, when its row is selected; `nil` (after a note on stderr) when there is none.
    private static func zlib(_ context: BenchmarkContext, name: String) -> Double? {
        guard context.selects(name + vsSuffix) else { return nil }
        switch PillowReference.figure(for: name, cpuTime: context.measurement.cpuTime, script: script) {
        case .success(let value):
            return value
        case .failure(let reason):
            FileHandle.standardError.write(Data("\(name)\(vsSuffix) skipped: \(reason)\n".utf8))
            return nil
        }
    }
}
