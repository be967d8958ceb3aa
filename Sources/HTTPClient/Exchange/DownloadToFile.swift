/// A response body going to its download file, as a value: it decides when the file is made
/// (with the final response's first body bytes, or its head when the body is empty), that a file
/// which failed stops the exchange, and that a failure met by the last writes turns a response
/// otherwise whole into `downloadFailed`. `SocketExchange` performs the actions and
/// `DownloadFileWriter` keeps the file and the first error it met.
struct DownloadToFile: Sendable {
    enum State: Equatable, Sendable {
        /// No byte of the final body arrived yet: no file.
        case notStarted
        /// The file is made and written, in order, off the loop.
        case writing
        /// The file failed: the exchange reported `downloadFailed`.
        case failed
        /// The exchange reported; the file is closed.
        case closed
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Makes the file (emptied if it was there) and writes the bytes to it.
        case createAndWrite
        /// Writes the bytes after those written before.
        case write
        /// Gives the connection back unreused and reports `downloadFailed` with the file's error.
        case failDownload
        /// Reports the exchange's result as it is.
        case report
    }

    private(set) var state = State.notStarted

    /// Body bytes of the final response arrived (none when only its head did); `fileFailed`
    /// when the file met an error so far.
    mutating func bodyArrived(fileFailed: Bool) -> Action? {
        switch state {
        case .notStarted:
            state = .writing
            return .createAndWrite
        case .writing where fileFailed:
            state = .failed
            return .failDownload
        case .writing:
            return .write
        case .failed, .closed:
            return nil
        }
    }

    /// The exchange ends with a response (`succeeded`) or a failure, and the file is closed after
    /// its last write; `fileFailed` when it met an error.
    mutating func finished(succeeded: Bool, fileFailed: Bool) -> Action {
        state = .closed
        return succeeded && fileFailed ? .failDownload : .report
    }
}
