import Foundation
import Locking
import Synchronization
import XCTest

/// Runs the built `photo-feed` binary as a subprocess and collects what it wrote.
struct ViewerProcess {
    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
        let timedOut: Bool

        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `photo-feed` next to the test bundle (`.build/<triple>/debug`), else in `.build/debug`.
    static func binary() throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("photo-feed"))
        }
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("photo-feed"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/photo-feed"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw BinaryMissing(searched: candidates.map(\.path))
        }
        return found
    }

    /// Runs `executable` with `arguments`, killing it after `timeout` seconds.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                    timeout: TimeInterval = 30) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let collected = PipeCollector(out: out, err: err)
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let timedOut = ended.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            process.terminate()
            ended.wait()
        }
        let (stdout, stderr) = collected.finish()
        return Outcome(status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }

    /// Runs `photo-feed` with `arguments`.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 30) throws -> Outcome {
        try run(binary(), arguments, environment: environment, timeout: timeout)
    }
}

/// `photo-feed` was not found: build the package (`swift build`) before testing.
struct BinaryMissing: Error, CustomStringConvertible {
    let searched: [String]
    var description: String { "photo-feed is not built; looked at \(searched). Run `swift build` first." }
}

/// Reads both pipes to their end on background threads, so a chatty child never blocks.
final class PipeCollector: Sendable {
    private let group = DispatchGroup()
    private let outData: DataBox
    private let errData: DataBox

    init(out: Pipe, err: Pipe) {
        outData = DataBox()
        errData = DataBox()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            let handle = pipe.fileHandleForReading
            group.enter()
            DispatchQueue.global().async { [group] in
                sink.set(handle.readDataToEndOfFile())
                group.leave()
            }
        }
    }

    func finish() -> (String, String) {
        _ = group.wait(timeout: .now() + 10)
        return (String(decoding: outData.get(), as: UTF8.self), String(decoding: errData.get(), as: UTF8.self))
    }
}

/// Data written once by a reader thread and read after the group finished.
final class DataBox: Sendable {
    private let data = Lock(Data())
    func set(_ value: Data) { data.withLock { $0 = value } }
    func get() -> Data { data.withLock { $0 } }
}
