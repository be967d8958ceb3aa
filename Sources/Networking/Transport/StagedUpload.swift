import Foundation
import Locking
import Synchronization

/// A streamed body written to a temporary file before URLSession sends it from there, as
/// Alamofire does with large multipart bodies: memory stays bounded (64 KB at a time), the
/// request carries a `Content-Length`, and no `InputStream` subclass reaches URLSession
/// (which Apple's URLSession cannot schedule).
enum StagedUpload {
    /// Copies what `makeStream` yields into a new temporary file and returns it; throws
    /// `URLError(.cannotOpenFile)` when no stream is made and the stream's error when it fails.
    static func write(_ makeStream: @Sendable () -> InputStream?) throws -> URL {
        guard let stream = makeStream() else { throw URLError(.cannotOpenFile) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("networking-upload-\(UUID().uuidString).body")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw URLError(.cannotCreateFile) }
        do {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            stream.open()
            defer { stream.close() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = stream.read(&buffer, maxLength: buffer.count)
                if count < 0 { throw stream.streamError ?? URLError(.cannotOpenFile) }
                if count == 0 { break }
                try handle.write(contentsOf: buffer[0..<count])
            }
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        return file
    }
}

/// The handle of an exchange that starts later (after its body is staged): cancelling before
/// the start stops it from starting; cancelling after cancels the started exchange.
final class DeferredCancellable: Cancellable {
    private struct State {
        var cancelled = false
        var started: (any Cancellable)?
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = Lock(State())

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Records the started exchange and what to clean up if cancelled; when `cancel()` came
    /// first, cancels it and cleans up at once.
    func started(_ cancellable: any Cancellable, cleanup: @escaping @Sendable () -> Void) {
        let cancelNow = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.started = cancellable
            state.cleanup = cleanup
            return false
        }
        if cancelNow {
            cancellable.cancel()
            cleanup()
        }
    }

    func cancel() {
        let (started, cleanup) = state.withLock { state -> ((any Cancellable)?, (@Sendable () -> Void)?) in
            guard !state.cancelled else { return (nil, nil) }
            state.cancelled = true
            defer {
                state.started = nil
                state.cleanup = nil
            }
            return (state.started, state.cleanup)
        }
        started?.cancel()
        cleanup?()
    }
}
