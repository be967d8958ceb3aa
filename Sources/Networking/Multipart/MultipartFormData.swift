import Foundation
import Locking

/// Builds a `multipart/form-data` body (RFC 7578) from data, file and stream parts, as
/// Alamofire's `MultipartFormData` does; the body is streamed (file parts read from disk in
/// chunks), never assembled in memory unless `encode()` is asked for.
///
/// Layout: `--boundary CRLF`, then per part its headers (`Content-Disposition: form-data;
/// name="n"[; filename="f"]`, then `Content-Type: t` when there is one), `CRLF`, the bytes;
/// parts are separated by `CRLF --boundary CRLF` and the body ends with `CRLF --boundary-- CRLF`.
/// A body without parts is empty.
///
/// ```swift
/// let form = MultipartFormData()
/// form.append(Data("Ann".utf8), name: "name")
/// form.append(photoURL, withName: "photo")          // image/jpeg from ".jpg"
/// provider.request(.upload(form)) { result in ... }
/// ```
public final class MultipartFormData: Sendable {
    private struct Part: Sendable {
        /// The part as Moya describes it (`parts`).
        let bodyPart: MultipartFormBodyPart
        let headers: [(name: String, value: String)]
        let content: BodySegment
        let length: UInt64
    }

    /// Where a part's bytes come from (Moya's name for `MultipartFormBodyPart.Provider`).
    public typealias FormDataProvider = MultipartFormBodyPart.Provider

    private struct State: Sendable {
        var parts: [Part] = []
        var failure: MultipartEncodingFailure?
    }

    /// The boundary between parts: the one given, else a random one (never `nil`, unlike Moya's).
    public let boundary: String
    /// What file parts are checked with (existence, size) when they are appended.
    public let fileManager: FileManager
    private let state = Lock(State())

    /// An empty body with a random boundary (Alamofire's `MultipartFormData()`; without it the
    /// call would be ambiguous with the empty array literal).
    public convenience init() {
        self.init(fileManager: .default, boundary: nil)
    }

    /// An empty body; the default boundary is random.
    public init(fileManager: FileManager = .default, boundary: String? = nil) {
        self.fileManager = fileManager
        self.boundary = boundary ?? Self.randomBoundary()
    }

    /// A body made of Moya's `MultipartFormBodyPart`s (Moya 15's initializer): data and stream
    /// parts as given; file parts with the file's name and a MIME type from its extension unless
    /// the part names them. The default boundary is random.
    ///
    /// ```swift
    /// let form = MultipartFormData(parts: [MultipartFormBodyPart(provider: .data(Data("Ann".utf8)), name: "name")])
    /// ```
    public convenience init(fileManager: FileManager = .default, boundary: String? = nil, parts: [MultipartFormBodyPart]) {
        self.init(fileManager: fileManager, boundary: boundary)
        for part in parts { append(part) }
    }

    /// A body made of `parts` with the given boundary.
    public convenience init(parts: [MultipartFormBodyPart], boundary: String) {
        self.init(boundary: boundary, parts: parts)
    }

    /// The parts, in order, as Moya's `MultipartFormBodyPart`s: a file part with the file name
    /// and MIME type it is sent with, a stream part with its declared length. A part that failed
    /// to append (a missing file) is not among them; sending the body reports its failure.
    public var parts: [MultipartFormBodyPart] {
        state.withLock { $0.parts }.map(\.bodyPart)
    }

    /// Appends one of Moya's parts: a file part gets the file's name and the MIME type of its
    /// extension unless the part names them.
    public func append(_ part: MultipartFormBodyPart) {
        switch part.provider {
        case .data(let data):
            add(part, content: .bytes(data), length: UInt64(data.count))
        case .file(let url):
            appendFile(url, name: part.name, fileName: part.fileName ?? url.lastPathComponent,
                       mimeType: part.mimeType ?? MIMEType.forPathExtension(url.pathExtension))
        case .stream(let stream, let length):
            add(part, content: .stream(StreamBox(stream), length: length), length: length)
        }
    }

    /// The value for the request's `Content-Type` header.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The length of the parts' contents in bytes, boundaries and part headers left out, as
    /// Alamofire counts it (a stream part counts its declared length).
    public var contentLength: UInt64 {
        state.withLock { $0.parts }.reduce(0) { $0 + $1.length }
    }

    /// The whole body's length in bytes, boundaries and part headers included: what is sent.
    var encodedLength: UInt64 {
        let parts = state.withLock { $0.parts }
        guard !parts.isEmpty else { return 0 }
        let heads = parts.enumerated().reduce(UInt64(0)) { sum, item in
            sum + UInt64(head(of: item.element, first: item.offset == 0).count) + item.element.length
        }
        return heads + UInt64(tail.count)
    }

    /// A fresh random boundary.
    public static func randomBoundary() -> String {
        let hex = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        return "networking.boundary.\(hex)"
    }

    /// Appends bytes from memory, with a file name and a MIME type when given.
    public func append(_ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil) {
        append(MultipartFormBodyPart(provider: .data(data), name: name, fileName: fileName, mimeType: mimeType))
    }

    /// Appends bytes from memory (Alamofire's spelling of `append(_:name:fileName:mimeType:)`).
    public func append(_ data: Data, withName name: String, fileName: String? = nil, mimeType: String? = nil) {
        append(data, name: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends a file, streamed from disk, named after its last path component, with the MIME
    /// type of its extension (`application/octet-stream` for unknown ones). Its size is read now
    /// and announced with the body: a file of another size when the body is read fails it
    /// (`MultipartEncodingFailure.inputStreamReadFailed`).
    public func append(_ fileURL: URL, withName name: String) {
        appendFile(fileURL, name: name, fileName: fileURL.lastPathComponent,
                   mimeType: MIMEType.forPathExtension(fileURL.pathExtension))
    }

    /// Appends a file, streamed from disk, with the given file name and MIME type.
    public func append(_ fileURL: URL, withName name: String, fileName: String, mimeType: String) {
        appendFile(fileURL, name: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends `length` bytes read from `stream` when the body is sent: bytes after them are
    /// left unread, and a stream that ends before them fails the body
    /// (`MultipartEncodingFailure.inputStreamReadFailed`). A stream can be read only once: a body
    /// with a stream part cannot be sent a second time (a retry fails).
    public func append(_ stream: InputStream, withLength length: UInt64, name: String, fileName: String, mimeType: String) {
        append(MultipartFormBodyPart(provider: .stream(stream, length), name: name, fileName: fileName, mimeType: mimeType))
    }

    /// The whole body in memory (for small bodies and tests); throws the first
    /// `MultipartEncodingFailure` met while appending or reading.
    public func encode() throws -> Data {
        var body = Data()
        try readBody(from: try bodyStream()) { body.append(contentsOf: $0) }
        return body
    }

    /// Reads `stream` to its end in 64 KB chunks, handing each to `chunk`.
    private func readBody(from stream: InputStream, _ chunk: (ArraySlice<UInt8>) throws -> Void) throws {
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 { throw stream.streamError ?? MultipartEncodingFailure.inputStreamReadFailed }
            if count == 0 { return }
            try chunk(buffer[0..<count])
        }
    }

    /// Writes the whole body to a new file at `fileURL`, part by part (Alamofire's
    /// `writeEncodedData(to:)`), for a body too large to hold in memory; a stream part writes its
    /// declared length. Throws
    /// `MultipartEncodingFailure.outputStreamURLInvalid` for a URL that is not a file URL,
    /// `.outputStreamFileAlreadyExists` when the file exists, `.outputStreamCreationFailed` when it
    /// cannot be created, the first failure met while appending or reading a part, and the file
    /// system's error when a write fails (the partial file is removed).
    public func writeEncodedData(to fileURL: URL) throws {
        guard fileURL.isFileURL else { throw MultipartEncodingFailure.outputStreamURLInvalid(fileURL) }
        guard !FileManager.default.fileExists(atPath: fileURL.path) else {
            throw MultipartEncodingFailure.outputStreamFileAlreadyExists(fileURL)
        }
        let stream = try bodyStream()
        guard FileManager.default.createFile(atPath: fileURL.path, contents: nil),
              let file = try? FileHandle(forWritingTo: fileURL) else {
            throw MultipartEncodingFailure.outputStreamCreationFailed(fileURL)
        }
        do {
            defer { try? file.close() }
            try readBody(from: stream) { try file.write(contentsOf: $0) }
        } catch {
            try? FileManager.default.removeItem(at: fileURL)
            throw error
        }
    }

    /// One part as `Endpoint`'s equality compares it: its headers and what its bytes come from
    /// (the bytes, a file's URL, or which stream), never the file's contents.
    struct PartIdentity: Hashable {
        enum Content: Hashable {
            case bytes(Data)
            case file(URL)
            case stream(ObjectIdentifier)
        }

        let headers: [String]
        let content: Content
    }

    /// The parts as `Endpoint`'s equality compares them; the boundary is left out (each form draws
    /// its own), a failure met while appending is kept.
    var partIdentities: [PartIdentity] {
        let (parts, failure) = state.withLock { ($0.parts, $0.failure) }
        var identities = parts.map { part in
            let content: PartIdentity.Content
            switch part.content {
            case .bytes(let data): content = .bytes(data)
            case .file(let url, _): content = .file(url)
            case .stream(let box, _): content = .stream(ObjectIdentifier(box.stream))
            }
            return PartIdentity(headers: part.headers.map { "\($0.name): \($0.value)" }, content: content)
        }
        if let failure { identities.append(PartIdentity(headers: ["failure: \(failure)"], content: .bytes(Data()))) }
        return identities
    }

    /// The body as a stream that reads the parts in sequence; throws the first failure met while appending.
    func bodyStream() throws -> SegmentedBodyStream {
        let (parts, failure) = state.withLock { ($0.parts, $0.failure) }
        if let failure { throw failure }
        guard !parts.isEmpty else { return SegmentedBodyStream(segments: [], length: 0) }
        var segments: [BodySegment] = []
        for (offset, part) in parts.enumerated() {
            segments.append(.bytes(head(of: part, first: offset == 0)))
            segments.append(part.content)
        }
        segments.append(.bytes(tail))
        return SegmentedBodyStream(segments: segments, length: Int64(encodedLength))
    }

    private var tail: Data { Data("\r\n--\(boundary)--\r\n".utf8) }

    private func head(of part: Part, first: Bool) -> Data {
        var text = first ? "--\(boundary)\r\n" : "\r\n--\(boundary)\r\n"
        for header in part.headers { text += "\(header.name): \(header.value)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    private func appendFile(_ url: URL, name: String, fileName: String, mimeType: String) {
        guard url.isFileURL else { return record(.fileURLInvalid(url)) }
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return record(.fileNotReachable(url))
        }
        guard !isDirectory.boolValue else { return record(.fileIsDirectory(url)) }
        guard let size = (try? fileManager.attributesOfItem(atPath: url.path))?[.size] as? NSNumber else {
            return record(.fileSizeNotAvailable(url))
        }
        add(MultipartFormBodyPart(provider: .file(url), name: name, fileName: fileName, mimeType: mimeType),
            content: .file(url, length: size.uint64Value), length: size.uint64Value)
    }

    private func add(_ bodyPart: MultipartFormBodyPart, content: BodySegment, length: UInt64) {
        var disposition = "form-data; name=\"\(Self.quoted(bodyPart.name))\""
        if let fileName = bodyPart.fileName { disposition += "; filename=\"\(Self.quoted(fileName))\"" }
        var headers = [(name: "Content-Disposition", value: disposition)]
        if let mimeType = bodyPart.mimeType { headers.append((name: "Content-Type", value: Self.oneLine(mimeType))) }
        let part = Part(bodyPart: bodyPart, headers: headers, content: content, length: length)
        state.withLock { $0.parts.append(part) }
    }

    private func record(_ failure: MultipartEncodingFailure) {
        state.withLock { state in
            if state.failure == nil { state.failure = failure }
        }
    }

    /// `value` for a quoted-string parameter: `\` and `"` backslash-escaped, CR and LF percent-encoded.
    private static func quoted(_ value: String) -> String {
        oneLine(value.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\""))
    }

    /// `value` with CR and LF percent-encoded, so that it stays on its header line and cannot
    /// add header lines to the part or end its headers.
    private static func oneLine(_ value: String) -> String {
        value.replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}

/// A form written as an array of Moya's parts (Moya 15's `ExpressibleByArrayLiteral`).
///
/// ```swift
/// let form: MultipartFormData = [MultipartFormBodyPart(provider: .data(Data("Ann".utf8)), name: "name")]
/// ```
extension MultipartFormData: ExpressibleByArrayLiteral {
    /// A form of `elements`, with a random boundary.
    public convenience init(arrayLiteral elements: MultipartFormBodyPart...) {
        self.init(parts: elements)
    }
}
