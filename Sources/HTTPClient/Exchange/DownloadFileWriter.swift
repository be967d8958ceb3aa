import Foundation
import Locking

/// Writes a download's body to its file on an I/O queue, in order, so the event loop never waits
/// on the disk. The file is created by the first queued step (so an empty body still leaves a
/// file); the first failure stops the writing, `failure` shows it to the loop at once, and
/// `finish` hands it over after the last write.
///
/// The loop hands bytes over as they arrive and does not wait for the disk, so a disk slower
/// than the network holds the difference in memory until it catches up.
final class DownloadFileWriter: @unchecked Sendable {
    // @unchecked: `handle` is touched only on `queue` (serial); the failure is behind its lock.
    private let queue: DispatchQueue
    private var handle: FileHandle?
    private let failed = Lock<(any Error)?>(nil)

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

    /// Appends `bytes` to the file, after the writes handed over before.
    func write(_ bytes: [UInt8]) {
        queue.async { [self] in
            guard let handle, failure == nil else { return }
            do {
                try handle.write(contentsOf: bytes)
            } catch {
                record(error)
            }
        }
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
