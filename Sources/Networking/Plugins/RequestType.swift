import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request a plugin's `willSend` sees.
public protocol RequestType: Sendable {
    /// The request about to be sent (after every plugin's `prepare`), if it could be built.
    var request: URLRequest? { get }
    /// Headers the session adds to every request (from its configuration).
    var sessionHeaders: [String: String] { get }
}

/// A plain `RequestType` value.
public struct PreparedRequest: RequestType {
    /// The request, if it could be built.
    public let request: URLRequest?
    /// Headers the session adds.
    public let sessionHeaders: [String: String]

    /// Creates a value carrying `request` and the session's extra headers.
    public init(request: URLRequest?, sessionHeaders: [String: String] = [:]) {
        self.request = request
        self.sessionHeaders = sessionHeaders
    }
}
