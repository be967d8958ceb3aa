import Foundation

/// libjpeg-turbo's figure for a `k.` row, timed through Pillow by `scripts/bench-pillow-jpeg.py`
/// in a child process right before ours, so both come from the same run of the harness.
enum PillowReference {
    /// The script, found from this file's path like the corpus.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/bench-pillow-jpeg.py")

    /// Why there is no figure, printed once as the note of a skipped row.
    enum Unavailable: Error, Equatable {
        /// `python3` could not be started.
        case noPython(String)
        /// The script failed (most often: Pillow is not installed); its last line of stderr.
        case scriptFailed(String)
        /// The script ran but printed no figure for the label.
        case noFigure(String)
    }

    /// libjpeg-turbo's figure for `label` (`MP/s` or `us`, as the script prints it), or another
    /// reference `script`'s that speaks the same options (`scripts/bench-zlib-inflate.py`).
    /// With `cpuTime`, the script times its thread's CPU time, as the harness's `--cpu-time`.
    static func figure(for label: String, cpuTime: Bool, script: URL = script) -> Result<Double, Unavailable> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--json", "--only", label] + (cpuTime ? ["--cpu-time"] : [])
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(.noPython("\(error)"))
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let lines = String(decoding: complaint, as: UTF8.self).split(separator: "\n")
            return .failure(.scriptFailed(lines.last.map(String.init) ?? "exit status \(process.terminationStatus)"))
        }
        return parse(String(decoding: printed, as: UTF8.self), label: label)
    }

    /// The `value` of the script's JSON line named `label`.
    static func parse(_ text: String, label: String) -> Result<Double, Unavailable> {
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["name"] as? String == label, let value = object["value"] as? Double else { continue }
            return .success(value)
        }
        return .failure(.noFigure(label))
    }

    /// The note for a row skipped because there is no figure.
    static func note(_ reason: Unavailable) -> String {
        switch reason {
        case .noPython(let why): "python3 did not start (\(why))"
        case .scriptFailed(let why): "bench-pillow-jpeg.py failed: \(why) (pip install pillow)"
        case .noFigure(let label): "bench-pillow-jpeg.py printed no figure for \(label)"
        }
    }
}
