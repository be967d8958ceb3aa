import Foundation

/// A stock server run as a child process on 127.0.0.1, with a temporary folder of its own when
/// it needs one (its configuration, files and logs; its working directory): `launch` starts it
/// and waits, bounded, until it accepts connections on its port; `stop()` ends it and removes
/// the folder (idempotent, and on deinit). `StockTLSServer`, `TinyProxy` and `MicroSocks` are
/// each one of these.
public final class StockProcess: @unchecked Sendable {
    // @unchecked: `process` is set in `init` and only read and stopped afterwards, from the test's thread.
    /// The port it listens on.
    public let port: UInt16
    /// Its folder, if it has one.
    public let directory: URL?
    private let process: Process

    private init(port: UInt16, process: Process, directory: URL?) {
        self.port = port
        self.process = process
        self.directory = directory
    }

    deinit {
        stop()
    }

    /// A new, empty temporary folder whose name starts with `name`.
    static func makeDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs `program` with `arguments` in `directory` (when given), its standard error written
    /// to `errorLog` (else discarded, as its standard output is), and waits until it listens on
    /// `port`; throws `StockServerError.didNotStart` (the process stopped) when it never does.
    static func launch(_ program: String, _ arguments: [String], port: UInt16, directory: URL?,
                       errorLog: URL? = nil) throws -> StockProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        if let errorLog {
            guard FileManager.default.createFile(atPath: errorLog.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            process.standardError = try FileHandle(forWritingTo: errorLog)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        if let directory { process.currentDirectoryURL = directory }
        try process.run()
        let server = StockProcess(port: port, process: process, directory: directory)
        guard StockTLSServer.waitUntilListening(port: port, process: process) else {
            server.stop()
            throw StockServerError.didNotStart(program)
        }
        return server
    }

    /// Stops the server and removes its folder (idempotent).
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}
