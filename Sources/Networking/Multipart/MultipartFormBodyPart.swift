import Foundation

/// One part of a `multipart/form-data` body.
public struct MultipartFormBodyPart: Sendable, Hashable {
    /// Where the part's bytes come from.
    public enum Provider: Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// A local file, streamed from disk when the request is sent.
        case file(URL)
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
