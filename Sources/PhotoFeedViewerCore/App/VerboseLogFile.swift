import Foundation
import Locking

/// Where `--verbose` lines go while the full screen covers the terminal: a new file in the
/// temporary folder, `photo-feed-<process id>-<time>.log`, named on stderr when the viewer exits.
package final class VerboseLogFile: Sendable {
    /// The file.
    package let url: URL
    private let handle: Lock<FileHandle?>

    private init(url: URL, handle: FileHandle) {
        self.url = url
        self.handle = Lock(handle)
    }

    /// Creates the file (readable by its owner only).
    package static func create(in folder: URL = FileManager.default.temporaryDirectory) throws -> VerboseLogFile {
        let name = "photo-feed-\(ProcessInfo.processInfo.processIdentifier)-\(Int(Date().timeIntervalSince1970)).log"
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return VerboseLogFile(url: url, handle: try FileHandle(forWritingTo: url))
    }

    /// Appends `line` and a line break (nothing after `close()`).
    package func write(_ line: String) {
        handle.withLock { $0?.write(Data((line + "\n").utf8)) }
    }

    /// Closes the file.
    package func close() {
        let closing = handle.withLock { handle -> FileHandle? in
            defer { handle = nil }
            return handle
        }
        try? closing?.close()
    }
}
