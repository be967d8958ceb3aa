import Foundation

/// A progress update of a request, with the response once it arrived (Moya's `ProgressResponse`).
///
/// ```swift
/// provider.request(.upload(file), progress: { print($0.progress, $0.completed) }) { _ in }
/// ```
public struct ProgressResponse: Sendable {
    /// The response, on the last update of a successful request.
    public let response: Response?
    private let fraction: Double
    /// The counts `progressObject` is made of; `total` is -1 while the size is not known.
    private let units: (completed: Int64, total: Int64)?

    /// An update at `progress` (0...1); a response makes it complete (progress 1).
    public init(progress: Double = 0, response: Response? = nil) {
        self.fraction = min(1, max(0, progress))
        self.response = response
        self.units = nil
    }

    /// An update read from a Foundation `Progress` (Moya's initializer): its counts are kept, so
    /// `progress` is its `fractionCompleted` while its total is known, else 0.
    public init(progress: Progress?, response: Response? = nil) {
        self.response = response
        if let progress {
            self.units = (progress.completedUnitCount, progress.totalUnitCount)
            self.fraction = progress.totalUnitCount > 0 ? min(1, max(0, progress.fractionCompleted)) : 0
        } else {
            self.units = nil
            self.fraction = 0
        }
    }

    /// An update of `completed` units of `total` (-1: not known), as a provider reports them.
    init(units completed: Int64, of total: Int64, response: Response? = nil) {
        self.response = response
        self.units = (completed, total)
        self.fraction = total > 0 ? min(1, max(0, Double(completed) / Double(total))) : 0
    }

    /// The fraction done, 0...1: 1 once the response arrived, 0 while the size is unknown.
    public var progress: Double { completed ? 1 : fraction }

    /// Whether the response arrived.
    public var completed: Bool { response != nil }

    /// The update as a Foundation `Progress` (Moya's `progressObject`), made anew at each read:
    /// bytes for an upload; for a download, millionths of the body (transports report fractions),
    /// with `totalUnitCount` -1 (indeterminate) while the body's size is not known. `nil` for an
    /// update made from a bare fraction.
    public var progressObject: Progress? {
        guard let units else { return nil }
        let object = Progress(totalUnitCount: units.total)
        object.completedUnitCount = units.completed
        return object
    }
}

/// Receives the progress of a request: upload progress for uploads (file, multipart), download
/// progress otherwise, and a last call when the request ends (with the response on success).
public typealias ProgressBlock = @Sendable (_ progress: ProgressResponse) -> Void
