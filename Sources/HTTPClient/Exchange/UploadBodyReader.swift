import Foundation

/// The request body of one attempt, read from its `HTTPClientRequest.Body` a chunk at a time as the socket
/// takes it, so that a file or stream is never held whole. A retry or a redirect makes a new
/// reader (a new stream from the factory, the file opened again). A file or a stream is opened,
/// read and closed on the exchange's I/O queue, bytes in memory on the loop.
final class UploadBodyReader: @unchecked Sendable {
    // @unchecked: used by one thread at a time, the loop (bytes in memory) or one serial I/O queue.
    /// The body's length when known (sent as `Content-Length`); nil sends it chunked.
    let length: Int64?
    private var data: Data?
    private var offset = 0
    private var file: FileHandle?
    private var stream: InputStream?
    private var chunks: HTTPClientRequest.ChunkIterator?
    /// Bytes a file, stream or `AsyncSequence` brought so far (checked against the length sent).
    private var counted: Int64 = 0
    private var finished = false

    /// Whether the body is already in memory (reading it touches no file or caller's stream).
    var isInMemory: Bool { data != nil }

    /// A reader of bytes in memory.
    init(bytes: Data) {
        data = bytes
        length = Int64(bytes.count)
    }

    /// Opens `source`; throws when the file cannot be opened or the factory gives no stream.
    init(_ source: HTTPClientRequest.Body) throws {
        switch source {
        case .bytes(let bytes):
            data = bytes
            length = Int64(bytes.count)
        case .file(let url):
            let handle = try FileHandle(forReadingFrom: url)
            file = handle
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            length = Int64(size)
        case .stream(let makeStream, let declared):
            guard let made = makeStream() else { throw URLError(.cannotOpenFile) }
            made.open()
            stream = made
            length = declared
        case .asyncSequence(let sequence, let declared):
            guard let iterator = sequence.takeIterator() else { throw HTTPClientError.bodyNotReplayable }
            chunks = iterator
            length = declared
        }
    }

    /// Reads the next piece and hands it to `done`: an `AsyncSequence`'s next chunk from its
    /// read-ahead task as it comes (as large as the sequence made it; `close()` makes it a
    /// `CancellationError`), anything else up to `limit` bytes on `queue`.
    func read(limit: Int, on queue: DispatchQueue, _ done: @escaping @Sendable (Result<[UInt8], any Error>) -> Void) {
        guard let chunks, !finished else {
            return queue.async { [self] in done(Result { try next(limit: limit) }) }
        }
        chunks.whenReady { [self] read in
            done(Result {
                let chunk = try read.get() ?? []
                try counting(chunk)
                return chunk
            })
        }
    }

    /// An `AsyncSequence`'s next chunk when it was read ahead already (counted as `read` counts
    /// it); nil when none is there yet, or for any other body.
    func readyChunk() -> Result<[UInt8], any Error>? {
        guard let chunks, !finished, let ready = chunks.readyChunk() else { return nil }
        return Result {
            let chunk = try ready.get() ?? []
            try counting(chunk)
            return chunk
        }
    }

    /// Counts a chunk against the length sent: more than it, or the end before it, fails (the
    /// server would read the rest as the next request, or wait for bytes that never come).
    private func counting(_ chunk: [UInt8]) throws {
        counted += Int64(chunk.count)
        guard let length else { return }
        if counted > length || (chunk.isEmpty && counted < length) {
            throw BodyLengthMismatch(declared: length, counted: counted)
        }
    }

    /// Up to `limit` next bytes; empty at the end of the body. Throws the file's or stream's
    /// error, and `BodyLengthMismatch` when a stream brings more or fewer bytes than its declared
    /// length (or a file than its size when it was opened).
    func next(limit: Int) throws -> [UInt8] {
        guard !finished else { return [] }
        var bytes: [UInt8] = []
        if let data {
            let end = min(data.count, offset + limit)
            bytes = [UInt8](data[(data.startIndex + offset)..<(data.startIndex + end)])
            offset = end
        } else if let file {
            bytes = [UInt8](try file.read(upToCount: limit) ?? Data())
        } else if let stream {
            bytes = [UInt8](repeating: 0, count: limit)
            let count = stream.read(&bytes, maxLength: limit)
            if count < 0 { throw stream.streamError ?? URLError(.cannotOpenFile) }
            bytes.removeSubrange(count...)
        }
        if bytes.isEmpty { close() }
        if data == nil { try counting(bytes) }
        return bytes
    }

    /// Closes the file or stream (also done at the end of the body).
    func close() {
        finished = true
        chunks?.cancel()
        try? file?.close()
        file = nil
        stream?.close()
        stream = nil
    }
}
