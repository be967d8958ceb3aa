import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a transport does beyond sending a `URLRequest` as it is: a streamed body, a response
/// body written to a file, and progress in both directions.
public struct TransportOptions: Sendable {
    /// The body to stream in place of `URLRequest.httpBody` (which is then ignored).
    public var upload: UploadSource?
    /// When set, the response body is written to this file (created or truncated) as it
    /// arrives and never held whole in memory; the `Response` then has an empty `data` and
    /// this URL as `fileURL`.
    public var downloadFile: URL?
    /// Told the bytes of the body sent so far and the total when known.
    public var uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)?
    /// Told the fraction (0...1) of the response body received; -1 each time bytes arrive while
    /// the size is not known (no usable `Content-Length`).
    public var downloadProgress: (@Sendable (Double) -> Void)?

    /// Options for a plain exchange unless set.
    public init(upload: UploadSource? = nil,
                downloadFile: URL? = nil,
                uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)? = nil,
                downloadProgress: (@Sendable (Double) -> Void)? = nil) {
        self.upload = upload
        self.downloadFile = downloadFile
        self.uploadProgress = uploadProgress
        self.downloadProgress = downloadProgress
    }
}
