import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a finished download goes: given the temporary file the body was streamed to and the
/// response, returns the destination and what to do there (Alamofire's `Destination`).
///
/// ```swift
/// let destination: DownloadDestination = { _, response in
///     (documents.appendingPathComponent(response.suggestedFilename ?? "file"), [.removePreviousFile])
/// }
/// ```
public typealias DownloadDestination = @Sendable (_ temporaryURL: URL, _ response: HTTPURLResponse)
    -> (destinationURL: URL, options: DownloadOptions)
