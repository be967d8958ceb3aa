import Foundation
import Locking
import Synchronization
import TestSupport
import XCTest

/// `photo-feed` in a pseudo-terminal made by `script(1)`, 100x30, followed by `stty -a` so a
/// test can see the terminal modes the viewer left behind.
final class PTYSession: Sendable {
    private let process: Process
    private let input: Pipe
    private let output: Pipe
    private let screen = Lock(Data())
    private let ended = DispatchSemaphore(value: 0)
    private let drained = DispatchSemaphore(value: 0)

    init(arguments: [String], environment: [String: String] = [:]) throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else { throw XCTSkip("script(1) is not installed") }
        let binary = try ViewerProcess.binary()
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let words = (["env"] + assignments + [binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = "stty cols 100 rows 30; \(words.joined(separator: " ")); echo EXIT=$?; stty -a"
        process = Process()
        input = Pipe()
        output = Pipe()
        process.executableURL = script
        process.arguments = ["-qfec", command, "/dev/null"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let ended = self.ended
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        // A thread of its own reads until end of file. (FileHandle's readabilityHandler crashed
        // libdispatch's manager thread when it was cancelled in `finish`, once in many runs.)
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            // `availableData` returns what one read gives (empty at end of file), where
            // `read(upToCount:)` would wait for the whole count.
            while case let data = reader.availableData, !data.isEmpty {
                screen.withLock { $0.append(data) }
            }
            drained.signal()
        }
    }

    /// Everything the terminal received so far.
    var text: String { String(decoding: screen.withLock { $0 }, as: UTF8.self) }

    /// Bytes received so far, to look only at what comes after a key press.
    var byteCount: Int { screen.withLock { $0.count } }

    /// What the terminal received after the first `offset` bytes.
    func text(from offset: Int) -> String {
        String(decoding: screen.withLock { $0.dropFirst(offset) }, as: UTF8.self)
    }

    /// Waits until what arrived after `offset` shows `fragment`.
    func waitFor(_ fragment: String, after offset: Int, timeout: TimeInterval = 20) -> Bool {
        waitUntil(timeout: timeout) { self.text(from: offset).contains(fragment) }
    }

    /// Types `keys`.
    func type(_ keys: String) {
        input.fileHandleForWriting.write(Data(keys.utf8))
    }

    /// Waits until the screen shows `fragment`.
    func waitFor(_ fragment: String, timeout: TimeInterval = 20) -> Bool {
        waitUntil(timeout: timeout) { self.text.contains(fragment) }
    }

    /// Waits for the shell to end, then returns the whole output; kills it after `timeout`.
    func finish(timeout: TimeInterval = 20) -> (ended: Bool, text: String) {
        let ended = self.ended.wait(timeout: .now() + timeout) == .success
        if !ended {
            process.terminate()
            self.ended.wait()
        }
        // The reader reaches end of file once every process holding the pipe has gone.
        _ = drained.wait(timeout: .now() + timeout)
        return (ended, text)
    }

    /// The terminal modes `stty -a` printed after the viewer's restore sequence, or `nil` if it never restored.
    static func modesAfterRestore(_ text: String) -> Set<String>? {
        guard let restore = text.range(of: "\u{1B}[?25h\u{1B}[?1049l") else { return nil }
        return Set(text[restore.upperBound...].split(whereSeparator: { $0.isWhitespace || $0 == ";" }).map(String.init))
    }
}
