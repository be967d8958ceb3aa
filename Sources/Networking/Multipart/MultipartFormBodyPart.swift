import Foundation

/// One part of a `multipart/form-data` body.
public struct MultipartFormBodyPart: Sendable, Hashable {
    /// Where the part's bytes come from (Moya's `MultipartFormData.FormDataProvider`).
    // @unchecked: a `.stream`'s InputStream is read only by the one body stream that reaches it, on one thread at a time.
    public enum Provider: @unchecked Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// A local file, streamed from disk when the request is sent.
        case file(URL)
        /// The first `length` bytes of a caller's stream, read when the body is sent (compared by
        /// the stream's identity).
        case stream(InputStream, UInt64)
    }

    /// Where the part's bytes come from.
    public let provider: Provider
    /// The form field name.
    public let name: String
    /// The file name announced in `Content-Disposition`, if any.
    public let fileName: String?
    /// The part's `Content-Type`, if any.
    public let mimeType: String?

    /// A part named `name`; with `fileName` it is sent as a file (`filename=` in its
    /// `Content-Disposition`).
    public init(provider: Provider, name: String, fileName: String? = nil, mimeType: String? = nil) {
        self.provider = provider
        self.name = name
        self.fileName = fileName
        self.mimeType = mimeType
    }
}
