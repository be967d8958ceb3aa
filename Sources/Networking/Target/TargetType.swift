import Foundation

/// Describes one API endpoint: where it lives, how to call it, and what a stub answers.
public protocol TargetType: Sendable {
    /// The base URL; `path` is appended to it.
    var baseURL: URL { get }
    /// The path appended to `baseURL`; empty means `baseURL` itself.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// What the request carries (parameters, body, upload, download).
    var task: RequestTask { get }
    /// Header fields for the request; `nil` for none.
    var headers: [String: String]? { get }
    /// The body a stub answers with (default: empty).
    var sampleData: Data { get }
    /// Which status codes count as success (default: `.none`, every code).
    var validationType: ValidationType { get }
}

extension TargetType {
    /// No sample data.
    public var sampleData: Data { Data() }
    /// No status validation.
    public var validationType: ValidationType { .none }
}
