import Foundation
import Locking

/// Writes a download's body to its file on an I/O queue, in order, so the event loop never waits
/// on the disk. The file is created by the first queued step (so an empty body still leaves a
/// file); the first failure stops the writing, `failure` shows it to the loop at once, and
/// `finish` hands it over after the last write.
///
/// At most about `backlogLimit` bytes wait for the disk: past it `write` says so, the exchange
/// stops reading the socket, and `resumeWhenDrained` tells it when half is written (so a disk
/// slower than the network slows the download instead of filling memory).
final class DownloadFileWriter: @unchecked Sendable {
    // @unchecked: `handle` is touched only on `queue` (serial); the rest is behind its locks.
    private let queue: DispatchQueue
    private var handle: FileHandle?
    private let failed = Lock<(any Error)?>(nil)
    /// Bytes handed over and not yet written, and who to tell once they drop to half the limit.
    private let backlog = Lock<(bytes: Int, resume: (@Sendable () -> Void)?)>((0, nil))

    /// The bytes that may wait for the disk before the socket is left unread.
    static let backlogLimit = 4 << 20

    /// Starts writing to `file` (created empty, or emptied) on `queue`.
    init(file: URL, queue: DispatchQueue) {
        self.queue = queue
        queue.async { [self] in
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                return record(CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]))
            }
            do {
                handle = try FileHandle(forWritingTo: file)
            } catch {
                record(error)
            }
        }
    }

    /// The first error the file met, if any (readable from any thread).
    var failure: (any Error)? { failed.withLock { $0 } }

    /// Appends `bytes` to the file, after the writes handed over before; true when more than
    /// `backlogLimit` bytes now wait for the disk (stop reading until `resumeWhenDrained`).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        let waiting = backlog.withLock { backlog -> Int in
            backlog.bytes += bytes.count
            return backlog.bytes
        }
        queue.async { [self] in
            defer { written(bytes.count) }
            guard let handle, failure == nil else { return }
            do {
                try handle.write(contentsOf: bytes)
            } catch {
                record(error)
            }
        }
        return waiting > Self.backlogLimit
    }

    /// Calls `resume` (on the I/O queue, or here when it is so already) once at most half of
    /// `backlogLimit` waits for the disk.
    func resumeWhenDrained(_ resume: @escaping @Sendable () -> Void) {
        let now = backlog.withLock { backlog -> Bool in
            guard backlog.bytes > Self.backlogLimit / 2 else { return true }
            backlog.resume = resume
            return false
        }
        if now { resume() }
    }

    /// Bytes handed over and not yet written (for tests and diagnostics).
    var backlogBytes: Int { backlog.withLock { $0.bytes } }

    private func written(_ count: Int) {
        let resume = backlog.withLock { backlog -> (@Sendable () -> Void)? in
            backlog.bytes -= count
            guard backlog.bytes <= Self.backlogLimit / 2 else { return nil }
            defer { backlog.resume = nil }
            return backlog.resume
        }
        resume?()
    }

    /// Closes the file after the pending writes, then calls `done` on the I/O queue with the
    /// first error the file met.
    func finish(_ done: @escaping @Sendable ((any Error)?) -> Void) {
        queue.async { [self] in
            do {
                try handle?.close()
            } catch {
                record(error)
            }
            handle = nil
            done(failure)
        }
    }

    private func record(_ error: any Error) {
        failed.withLock { $0 = $0 ?? error }
    }
}
