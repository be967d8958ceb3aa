import Foundation

/// Where a request body comes from when a transport streams it instead of sending
/// `URLRequest.httpBody` held in memory.
///
/// ```swift
/// let options = TransportOptions(upload: .file(URL(fileURLWithPath: "/tmp/big.bin")))
/// ```
public enum UploadSource: Sendable {
    /// Bytes already in memory.
    case data(Data)
    /// A file read from disk in chunks as it is sent; its size is the body's length.
    case file(URL)
    /// A stream made fresh for every attempt (a retry or a redirect needs a new one), with its
    /// length when known (`Content-Length`); without one the body is sent chunked.
    case stream(@Sendable () -> InputStream?, length: Int64?)
}
