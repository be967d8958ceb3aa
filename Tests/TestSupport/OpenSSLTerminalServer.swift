import EventLoopIO
import Foundation

/// OpenSSL's `s_server` as a terminal on 127.0.0.1: what a client sends appears on its output,
/// and what the test types on its input goes to the client as it is, so a test writes the
/// server's answer byte by byte and decides how the connection ends. Its commands act on the
/// connection: `k`/`K` send a TLS 1.3 KeyUpdate (`K` asking the client to update its keys too);
/// the end of its input closes the connection without `close_notify` (a bare FIN), as a server
/// that crashed would; `kill()` kills it (SIGKILL).
///
/// `s_server` reads its input in pieces and treats a piece that starts with a command letter as a
/// command: `type` and `keyUpdate` wait until the piece before was taken (seen on the client's
/// side, or on the server's output) before writing the next, so no two pieces merge. It runs under
/// `stdbuf -oL`, so its output arrives line by line. Bounded: every wait gives up after 10 s.
public final class OpenSSLTerminalServer: @unchecked Sendable {
    // @unchecked: `process` and the pipes are set in `init` and only used from the test's thread
    // afterwards; `output` is a `Recorder` (the reading thread appends to it).
    /// The port it listens on.
    public let port: UInt16
    private let process: Process
    private let input: Pipe
    /// What the server printed, in the pieces read.
    private let output = Recorder<[UInt8]>()
    private let reader: Thread
    /// Signalled when the reading thread met the end of the output (the server exited).
    private let readerDone = DispatchSemaphore(value: 0)

    /// Starts `s_server` with the fixture `certificate` and `key`; nil when no `openssl` or no
    /// `stdbuf` command is installed.
    public static func start(certificate: String, key: String) throws -> OpenSSLTerminalServer? {
        guard let openssl = StockTLSServer.program(StockTLSServer.opensslCandidates),
              let stdbuf = StockTLSServer.program(["/usr/bin/stdbuf", "/bin/stdbuf", "/usr/local/bin/stdbuf"]) else { return nil }
        return try OpenSSLTerminalServer(stdbuf: stdbuf, openssl: openssl, certificate: certificate, key: key)
    }

    private init(stdbuf: String, openssl: String, certificate: String, key: String) throws {
        port = try StockTLSServer.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: stdbuf)
        process.arguments = ["-oL", openssl, "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key]
        input = Pipe()
        let outputPipe = Pipe()
        process.standardInput = input
        process.standardOutput = outputPipe
        process.standardError = FileHandle.nullDevice
        let output = self.output
        let reading = outputPipe.fileHandleForReading
        let readerDone = self.readerDone
        reader = Thread {
            while true {
                let bytes = reading.availableData
                if bytes.isEmpty { break }
                output.append([UInt8](bytes))
            }
            readerDone.signal()
        }
        try process.run()
        reader.start()
        guard StockTLSServer.waitUntilListening(port: port, process: process) else {
            stop()
            throw StockServerError.didNotStart(openssl)
        }
    }

    deinit {
        stop()
    }

    /// Waits until `text` has appeared on the server's output `count` times (a client's request,
    /// a command's report); false after 10 s.
    @discardableResult
    public func waitForOutput(_ text: String, count: Int = 1) -> Bool {
        let pattern = Array(text.utf8)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if Self.occurrences(of: pattern, in: printed) >= count { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// How many times `text` has appeared on the server's output so far (`CIPHER is` once per
    /// connection whose handshake completed).
    public func outputCount(of text: String) -> Int {
        Self.occurrences(of: Array(text.utf8), in: printed)
    }

    /// Sends `bytes` to the client as they are (the caller makes sure the piece before was taken).
    public func type(_ bytes: [UInt8]) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
    }

    /// Sends a KeyUpdate (asking the client to update its own keys too when `requestingPeerUpdate`)
    /// and waits until the server reports it done; false when it did not within 10 s. The piece
    /// typed before must have been taken.
    public func keyUpdate(requestingPeerUpdate: Bool) throws -> Bool {
        let report = "SSL_do_handshake -> 1"
        let before = Self.occurrences(of: Array(report.utf8), in: printed)
        try type(Array((requestingPeerUpdate ? "K\n" : "k\n").utf8))
        return waitForOutput(report, count: before + 1)
    }

    /// Ends the server's input: it sends what was typed, then closes the connection without
    /// `close_notify` and exits.
    public func endInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// Kills the server (SIGKILL): the kernel closes its connections with a bare FIN, sending what
    /// it already took, never a `close_notify`.
    public func kill() {
        guard process.isRunning else { return }
        sendSignal(SIGKILL, to: process.processIdentifier)
        process.waitUntilExit()
    }

    /// Stops the server and waits (bounded: 5 s) for its output's thread to end (idempotent).
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? input.fileHandleForWriting.close()
        if readerDone.wait(timeout: .now() + 5) == .success { readerDone.signal() }
    }

    /// Everything the server printed so far.
    private var printed: [UInt8] { output.values.flatMap { $0 } }

    private static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> Int {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return 0 }
        var count = 0
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index..<index + pattern.count].elementsEqual(pattern) {
                count += 1
                index += pattern.count
            } else {
                index += 1
            }
        }
        return count
    }
}

/// `kill(2)`, named apart from `OpenSSLTerminalServer.kill()`.
private func sendSignal(_ signal: Int32, to process: Int32) {
    _ = kill(process, signal)
}
