import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Synchronization

/// One request in flight on a `URLSessionTransport`: what arrived so far (in memory, or in the
/// download file as it arrives), and whom to tell.
final class URLSessionExchange: Sendable {
    private struct State {
        var response: HTTPURLResponse?
        var data = Data()
        var received: Int64 = 0
        var file: FileHandle?
        var fileFailure: (any Error)?
        var cancelled = false
    }

    let task: URLSessionTask
    let request: URLRequest
    let limit: Int
    let downloadFile: URL?
    let uploadLength: Int64?
    let uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)?
    let progress: (@Sendable (Double) -> Void)?
    let completion: @Sendable (Result<Response, ProviderError>) -> Void
    private let state = Lock(State())

    init(task: URLSessionTask, request: URLRequest, limit: Int, options: TransportOptions,
         completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) {
        self.task = task
        self.request = request
        self.limit = limit
        self.downloadFile = options.downloadFile
        switch options.upload {
        case .data(let data)?:
            uploadLength = Int64(data.count)
        case .file(let url)?:
            uploadLength = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        case .stream(_, let length)?:
            uploadLength = length
        case nil:
            uploadLength = nil
        }
        self.uploadProgress = options.uploadProgress
        self.progress = options.downloadProgress
        self.completion = completion
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func markCancelled() { state.withLock { $0.cancelled = true } }

    /// Records the response head and opens the download file; `false` when the announced
    /// length is over the limit (which does not apply to a body going to a file, nor to a HEAD).
    func receive(_ response: URLResponse) -> Bool {
        let http = response as? HTTPURLResponse
        var file: FileHandle?
        var failure: (any Error)?
        if let downloadFile {
            if FileManager.default.createFile(atPath: downloadFile.path, contents: nil) {
                file = try? FileHandle(forWritingTo: downloadFile)
            }
            if file == nil { failure = CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: downloadFile.path]) }
        }
        state.withLock { state in
            state.response = http
            state.file = file
            state.fileFailure = failure
        }
        // A HEAD announces the length of a body it does not carry, so there is nothing to limit.
        let isHead = request.httpMethod?.uppercased() == "HEAD"
        return isHead || downloadFile != nil || response.expectedContentLength <= Int64(limit)
    }

    /// Keeps body bytes (appends them to the download file when there is one); `false` when the
    /// in-memory total is over the limit or the file cannot be written.
    func receive(_ data: Data) -> Bool {
        let (total, expected, accepted) = state.withLock { state -> (Int64, Int64, Bool) in
            state.received += Int64(data.count)
            var accepted = true
            if downloadFile != nil {
                if let file = state.file {
                    do { try file.write(contentsOf: data) } catch {
                        state.fileFailure = error
                        accepted = false
                    }
                } else {
                    accepted = false
                }
            } else {
                state.data.append(data)
                accepted = state.data.count <= limit
            }
            return (state.received, state.response?.expectedContentLength ?? -1, accepted)
        }
        wrote(total, expected: expected)
        return accepted
    }

    /// Reports download progress: `total` bytes received (a download task: written) of
    /// `expected`; when that is not known (0 or less), -1 for every arrival of bytes.
    func wrote(_ total: Int64, expected: Int64) {
        guard let progress else { return }
        if expected > 0 {
            progress(min(1, Double(total) / Double(expected)))
        } else if total > 0 {
            progress(-1)
        }
    }

    /// Moves a download task's finished file from `location` to `downloadFile`, replacing what is
    /// there, and records the response head that came with it; a failure to move is kept as
    /// `fileFailure`, and the file at `location` is removed (Apple's URLSession removes it once
    /// the delegate call returns; FoundationNetworking leaves it in the temporary directory).
    func finishDownload(at location: URL, response: URLResponse?) {
        var failure: (any Error)?
        if let downloadFile {
            do {
                if FileManager.default.fileExists(atPath: downloadFile.path) {
                    try FileManager.default.removeItem(at: downloadFile)
                }
                try FileManager.default.moveItem(at: location, to: downloadFile)
            } catch {
                failure = error
                try? FileManager.default.removeItem(at: location)
            }
        }
        record(response)
        state.withLock { state in state.fileFailure = state.fileFailure ?? failure }
    }

    /// Keeps the task's response head when none was recorded (a download task reports none
    /// before it ends).
    func record(_ response: URLResponse?) {
        guard let http = response as? HTTPURLResponse else { return }
        state.withLock { state in state.response = state.response ?? http }
    }

    /// Reports upload progress, with the known length when URLSession does not know it.
    func sent(_ totalSent: Int64, expected: Int64) {
        uploadProgress?(totalSent, expected > 0 ? expected : uploadLength)
    }

    /// The error that stopped writing the download file, if any.
    var fileFailure: (any Error)? { state.withLock { $0.fileFailure } }

    /// Closes the download file (if any); called once the exchange ends.
    func closeFile() {
        let file = state.withLock { state -> FileHandle? in
            defer { state.file = nil }
            return state.file
        }
        try? file?.close()
    }

    /// The partial or full response, when a response head arrived; a download's has an empty
    /// body and the file's URL.
    var currentResponse: Response? {
        state.withLock { state in
            state.response.map {
                Response(statusCode: $0.statusCode, data: state.data, request: request, response: $0, fileURL: downloadFile)
            }
        }
    }
}
