import Foundation

/// One piece of a streamed body: bytes in memory, a file read in chunks, or a caller's stream.
enum BodySegment: Sendable {
    /// Bytes already in memory.
    case bytes(Data)
    /// A local file of `length` bytes (its size when it was appended), opened when the stream
    /// reaches it and read in 64 KB chunks; a file that is shorter or longer by then fails the
    /// body, whose announced length counted `length`.
    case file(URL, length: UInt64)
    /// A caller's stream (it can be read once), of which the declared `length` bytes are sent:
    /// bytes after them are left unread, and a stream that ends before them fails the body.
    case stream(StreamBox, length: UInt64)
}

/// Carries a caller's `InputStream` inside a `Sendable` body description.
// @unchecked: the stream is only read by the one body stream that reaches its segment, on one thread at a time.
final class StreamBox: @unchecked Sendable {
    let stream: InputStream
    init(_ stream: InputStream) { self.stream = stream }
}

/// An `InputStream` that reads its segments one after another without loading a file whole:
/// the streamed body of `.uploadFile` and of multipart uploads. It also knows how to make a
/// fresh copy of itself (`uploadSource`), which is what the provider hands to transports.
final class SegmentedBodyStream: InputStream {
    private static let chunkSize = 64 * 1024

    private let segments: [BodySegment]
    /// The total length in bytes, when known.
    let length: Int64?
    private var index = 0
    private var pending = Data()
    private var pendingOffset = 0
    private var file: FileHandle?
    private var openedStream = false
    /// Bytes still to read from the stream or file segment being read.
    private var streamRemaining: UInt64 = 0
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?

    init(segments: [BodySegment], length: Int64?) {
        self.segments = segments
        self.length = length
        super.init(data: Data())
    }

    /// The same body as an `UploadSource`: `.file` for a body that is one file, else a stream
    /// made fresh for every attempt.
    var uploadSource: UploadSource {
        if segments.count == 1, case .file(let url, _) = segments[0] { return .file(url) }
        let segments = self.segments
        let length = self.length
        return .stream({ SegmentedBodyStream(segments: segments, length: length) }, length: length)
    }

    override func open() {
        if status == .notOpen { status = .open }
    }

    override func close() {
        try? file?.close()
        file = nil
        if openedStream, index < segments.count, case .stream(let box, _) = segments[index] {
            box.stream.close()
            openedStream = false
        }
        status = .closed
    }

    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { failure }
    override var hasBytesAvailable: Bool { status == .open || status == .reading }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard status == .open || status == .reading else { return status == .atEnd ? 0 : -1 }
        var written = 0
        while written < length {
            if pendingOffset < pending.count {
                let count = min(length - written, pending.count - pendingOffset)
                pending.withUnsafeBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    (buffer + written).update(from: base.assumingMemoryBound(to: UInt8.self) + pendingOffset, count: count)
                }
                pendingOffset += count
                written += count
                continue
            }
            do {
                guard let chunk = try nextChunk() else {
                    status = .atEnd
                    return written
                }
                pending = chunk
                pendingOffset = 0
            } catch {
                failure = error
                status = .error
                return written > 0 ? written : -1
            }
        }
        return written
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                            length: UnsafeMutablePointer<Int>) -> Bool { false }

    /// The next non-empty chunk of the body, `nil` at its end.
    private func nextChunk() throws -> Data? {
        while index < segments.count {
            switch segments[index] {
            case .bytes(let data):
                index += 1
                if !data.isEmpty { return data }
            case .file(let url, let length):
                guard let handle = file else {
                    do { file = try FileHandle(forReadingFrom: url) } catch {
                        throw MultipartEncodingFailure.fileNotReachable(url)
                    }
                    streamRemaining = length
                    continue
                }
                if streamRemaining > 0 {
                    let data = try handle.read(upToCount: Int(min(UInt64(Self.chunkSize), streamRemaining))) ?? Data()
                    // Shorter than when it was appended: the body would not match its length.
                    if data.isEmpty { throw MultipartEncodingFailure.inputStreamReadFailed }
                    streamRemaining -= UInt64(data.count)
                    return data
                }
                // Longer than when it was appended: the same.
                let more = try handle.read(upToCount: 1) ?? Data()
                try? handle.close()
                file = nil
                index += 1
                if !more.isEmpty { throw MultipartEncodingFailure.inputStreamReadFailed }
            case .stream(let box, let length):
                if !openedStream {
                    box.stream.open()
                    openedStream = true
                    streamRemaining = length
                }
                var count = 0
                if streamRemaining > 0 {
                    var bytes = [UInt8](repeating: 0, count: Int(min(UInt64(Self.chunkSize), streamRemaining)))
                    count = box.stream.read(&bytes, maxLength: bytes.count)
                    if count > 0 {
                        streamRemaining -= UInt64(count)
                        return Data(bytes[0..<count])
                    }
                }
                box.stream.close()
                openedStream = false
                index += 1
                // A read error, or an end before the declared length: the body would not match its length.
                if count < 0 || streamRemaining > 0 { throw MultipartEncodingFailure.inputStreamReadFailed }
            }
        }
        return nil
    }
}
