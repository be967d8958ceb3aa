/// What to do at a download's destination before the downloaded file is moved there
/// (Alamofire's `DownloadRequest.Options`).
public struct DownloadOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Creates the destination's missing parent directories.
    public static let createIntermediateDirectories = DownloadOptions(rawValue: 1 << 0)
    /// Removes a file already at the destination; without it an existing file fails the download.
    public static let removePreviousFile = DownloadOptions(rawValue: 1 << 1)
}
