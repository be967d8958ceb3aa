import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a parameter dictionary into part of a `URLRequest` (its query string or its body).
public protocol ParameterEncoding: Sendable {
    /// Returns `request` with `parameters` encoded into it; `nil` parameters leave it unchanged.
    func encode(_ request: URLRequest, with parameters: [String: any Sendable]?) throws -> URLRequest
}

/// Why a parameter encoding failed.
public enum ParameterEncodingFailure: Error, Sendable, Equatable {
    /// The request has no URL to put a query string on.
    case missingURL
    /// The parameters are not representable as JSON; the text names the offending value.
    case invalidJSONObject(String)
}
