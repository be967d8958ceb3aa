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

        let stdoutIsTerminal = TerminalController.isTerminal(STDOUT_FILENO)
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let style = TextStyle(enabled: options.color && !noColor && stdoutIsTerminal)
        let interactive = stdoutIsTerminal && TerminalController.isTerminal(STDIN_FILENO)
            && options.format == .automatic && options.pages == nil

        let session: FeedSession
        do {
            session = try FeedSession(options: options, log: { writeError($0) })
        } catch {
            writeError("photo-feed: could not start the demo server: \(error)")
            return ExitCode.failure.rawValue
        }
        defer { session.stop() }

        if interactive {
            let graphics = ThumbnailProtocol.resolve(options.images, environment: environment)
            return InteractiveApp(session: session, options: options, terminal: TerminalController(), style: style,
                                  graphics: graphics, opener: .system(environment: environment))
                .run().rawValue
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
