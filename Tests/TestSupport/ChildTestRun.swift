import Foundation

/// One test of this test program run again in a child process, with `environment` added: for
/// what needs a process of its own (a setting the process reads once, a check that stops it).
/// XCTest on Linux runs the test its first argument names (`Module.Class/test`).
public struct ChildTestRun {
    /// What the child wrote, standard output and error together.
    public let output: String
    /// How it ended: exited (`status` is the exit status) or stopped by a signal (`status` is its number).
    public let reason: Process.TerminationReason
    public let status: Int32

    /// Runs `test` (`Module.Class/test`) and waits for it to end.
    public init(test: String, environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [test]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        reason = process.terminationReason
        status = process.terminationStatus
    }
}
