import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes parameters (or any JSON object) as JSON in the body (keys sorted), setting
/// `Content-Type: application/json` unless the request already has one.
public struct JSONEncoding: ParameterEncoding, Equatable {
    /// Compact JSON.
    public static let `default` = JSONEncoding()
    /// Indented JSON.
    public static let prettyPrinted = JSONEncoding(prettyPrinted: true)

    /// The writing options (keys are always sorted, so bodies are stable).
    public let options: JSONSerialization.WritingOptions

    /// Whether the output is indented.
    public var prettyPrinted: Bool { options.contains(.prettyPrinted) }

    /// Creates an encoding; `prettyPrinted` indents the output.
    public init(prettyPrinted: Bool = false) {
        self.init(options: prettyPrinted ? [.prettyPrinted] : [])
    }

    /// Creates an encoding with `JSONSerialization` writing options, as Alamofire's `JSONEncoding(options:)`.
    public init(options: JSONSerialization.WritingOptions) {
        self.options = options.union(.sortedKeys)
    }

    /// Puts `parameters` in the body as JSON; `nil` leaves the request unchanged.
    public func encode(_ request: URLRequest, with parameters: [String: any Sendable]?) throws -> URLRequest {
        guard let parameters else { return request }
        let object: [String: Any] = parameters
        return try encode(request, withJSONObject: object)
    }

    /// Puts `jsonObject` (an array, a dictionary, or anything `JSONSerialization` accepts) in the
    /// body as JSON, as Alamofire's `encode(_:withJSONObject:)`; `nil` leaves the request unchanged.
    /// Throws `ParameterEncodingFailure.invalidJSONObject` for a value that is not JSON.
    ///
    /// ```swift
    /// let request = try JSONEncoding.default.encode(request, withJSONObject: [["id": 1], ["id": 2]])
    /// ```
    public func encode(_ request: URLRequest, withJSONObject jsonObject: Any? = nil) throws -> URLRequest {
        guard let jsonObject else { return request }
        guard JSONSerialization.isValidJSONObject(jsonObject) else {
            throw ParameterEncodingFailure.invalidJSONObject(String(describing: jsonObject))
        }
        var request = request
        request.httpBody = try JSONSerialization.data(withJSONObject: jsonObject, options: options)
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }
}
