/// A progress update of a request, with the response once it arrived (Moya's `ProgressResponse`).
///
/// ```swift
/// provider.request(.upload(file), progress: { print($0.progress, $0.completed) }) { _ in }
/// ```
public struct ProgressResponse: Sendable {
    /// The response, on the last update of a successful request.
    public let response: Response?
    private let fraction: Double

    /// An update at `progress` (0...1); a response makes it complete (progress 1).
    public init(progress: Double = 0, response: Response? = nil) {
        self.fraction = min(1, max(0, progress))
        self.response = response
    }

    /// The fraction done, 0...1: 1 once the response arrived, 0 while the size is unknown.
    public var progress: Double { completed ? 1 : fraction }

    /// Whether the response arrived.
    public var completed: Bool { response != nil }
}

/// Receives the progress of a request: upload progress for uploads (file, multipart), download
/// progress otherwise, and a last call when the request ends (with the response on success).
public typealias ProgressBlock = @Sendable (_ progress: ProgressResponse) -> Void
