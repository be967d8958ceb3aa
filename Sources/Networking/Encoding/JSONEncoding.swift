import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes parameters as a JSON object in the body (keys sorted), setting
/// `Content-Type: application/json` unless the request already has one.
public struct JSONEncoding: ParameterEncoding, Equatable {
    /// Compact JSON.
    public static let `default` = JSONEncoding()
    /// Indented JSON.
    public static let prettyPrinted = JSONEncoding(prettyPrinted: true)

    /// Whether the output is indented.
    public let prettyPrinted: Bool

    /// Creates an encoding; `prettyPrinted` indents the output.
    public init(prettyPrinted: Bool = false) {
        self.prettyPrinted = prettyPrinted
    }

    /// Puts `parameters` in the body as JSON.
    public func encode(_ request: URLRequest, with parameters: [String: any Sendable]?) throws -> URLRequest {
        guard let parameters else { return request }
        let object: [String: Any] = parameters
        guard JSONSerialization.isValidJSONObject(object) else {
            throw ParameterEncodingFailure.invalidJSONObject(String(describing: parameters))
        }
        var options: JSONSerialization.WritingOptions = [.sortedKeys]
        if prettyPrinted { options.insert(.prettyPrinted) }
        var request = request
        request.httpBody = try JSONSerialization.data(withJSONObject: object, options: options)
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }
}
