import Foundation
import XCTest

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

extension ChildTestRun {
    /// Runs `test` once per child, in a process of its own told the child's `value` in `variable`
    /// (without a backtrace: the runtime's takes a second or more), and checks that each is stopped
    /// by a signal having written its `message`: for checks that stop the process, such as a
    /// state machine's `preconditionFailure` naming an impossible pair. Skips under the thread
    /// sanitizer (a launch of the instrumented program per child, to check one thread's
    /// arithmetic the plain run checks) and where XCTest cannot run one test of the program.
    public static func assertEachStops(test: String, variable: String, children: [(value: String, message: String)],
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        try skipSingleThreadedComputationUnderThreadSanitizer()
        #if os(Linux)
        for (value, message) in children {
            let child = try ChildTestRun(test: test, environment: [variable: value, "SWIFT_BACKTRACE": "enable=no"])
            XCTAssertEqual(child.reason, .uncaughtSignal, "\(message): the process goes on: \(child.output.suffix(400))", file: file, line: line)
            XCTAssertTrue(child.output.contains(message), "\(message) is not said: \(child.output.suffix(400))", file: file, line: line)
        }
        #else
        throw XCTSkip("runs the test binary again, which XCTest on Linux allows")
        #endif
    }
}
