import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes parameters as a JSON body with a `JSONEncoder` (Alamofire's `JSONParameterEncoder`),
/// setting `Content-Type: application/json` unless the request has one. Encoder failures are
/// thrown as the encoder threw them (`EncodingError`).
public struct JSONParameterEncoder: ParameterEncoder {
    /// A default `JSONEncoder`.
    public static let `default` = JSONParameterEncoder()
    /// Indented output (`.prettyPrinted`).
    public static let prettyPrinted = JSONParameterEncoder(formatting: .prettyPrinted)
    /// Keys in sorted order (`.sortedKeys`).
    public static let sortedKeys = JSONParameterEncoder(formatting: .sortedKeys)

    /// The encoder used; it is only read.
    public let encoder: JSONEncoder

    /// An encoder writing through `encoder`.
    public init(encoder: JSONEncoder = JSONEncoder()) {
        self.encoder = encoder
    }

    private init(formatting: JSONEncoder.OutputFormatting) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        self.init(encoder: encoder)
    }

    /// Puts `parameters` in the body as JSON; `nil` leaves the request unchanged.
    public func encode<Parameters: Encodable & Sendable>(_ parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        guard let parameters else { return request }
        var request = request
        request.httpBody = try encoder.encode(parameters)
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }
}

extension ParameterEncoder where Self == JSONParameterEncoder {
    /// `JSONParameterEncoder.default`, for a leading-dot argument.
    public static var json: JSONParameterEncoder { .default }

    /// A `JSONParameterEncoder` writing through `encoder`.
    public static func json(encoder: JSONEncoder = JSONEncoder()) -> JSONParameterEncoder {
        JSONParameterEncoder(encoder: encoder)
    }
}
