import Foundation

/// `photo-feed` as a function of its arguments and environment, for the thin `main.swift`.
package enum PhotoFeedCommand {
    /// Parses `arguments` (without the program name), runs the viewer, returns the exit status.
    package static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let command: ParsedCommand
        do {
            command = try ArgumentParser.parse(arguments)
        } catch {
            writeError("photo-feed: \(error.message)\nTry 'photo-feed --help' for more information.")
            return ExitCode.usage.rawValue
        }
        guard case .run(let options) = command else {
            writeOutput(Usage.text)
            return ExitCode.success.rawValue
        }

        let plan = DisplayPlan(options: options, environment: environment,
                               stdinIsTerminal: TerminalController.isTerminal(STDIN_FILENO),
                               stdoutIsTerminal: TerminalController.isTerminal(STDOUT_FILENO),
                               stderrIsTerminal: TerminalController.isTerminal(STDERR_FILENO))
        plan.notes.forEach(writeError)
        let style = TextStyle(enabled: plan.colors)

        var logFile: VerboseLogFile?
        if plan.logsToFile {
            do {
                logFile = try VerboseLogFile.create()
            } catch {
                writeError("photo-feed: could not create the --verbose log file: \(error)")
                return ExitCode.failure.rawValue
            }
        }
        let log: @Sendable (String) -> Void
        if let logFile {
            log = { logFile.write($0) }
        } else {
            log = { writeError($0) }
        }
        let session: FeedSession
        do {
            session = try FeedSession(options: options, log: log)
        } catch {
            writeError("photo-feed: could not start the demo server: \(error)")
            return ExitCode.failure.rawValue
        }
        defer { session.stop() }

        if plan.interactive {
            let code = InteractiveApp(session: session, options: options, terminal: TerminalController(), style: style,
                                      graphics: plan.graphics, picturesOff: plan.picturesOff ?? .terminal,
                                      opener: .system(environment: environment))
                .run().rawValue
            if let logFile {
                logFile.close()
                writeError("photo-feed: the --verbose log is in \(logFile.url.path)")
            }
            return code
        }
        let runner = BatchRunner(session: session, options: options, format: options.format == .json ? .json : .plain,
                                 style: style, output: writeOutput, errorOutput: writeError)
        return runner.run().rawValue
    }

    @Sendable
    private static func writeOutput(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    @Sendable
    private static func writeError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
