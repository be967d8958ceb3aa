import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes an `Encodable` value into a `URLRequest` (Alamofire's `ParameterEncoder`), the
/// counterpart of `ParameterEncoding` for typed parameters; `RequestTask.requestEncodableParameters`
/// sends a value through one.
///
/// ```swift
/// .requestEncodableParameters(parameters: Login(user: "ann"), encoder: URLEncodedFormParameterEncoder.default)
/// ```
public protocol ParameterEncoder: Sendable {
    /// Returns `request` with `parameters` encoded into it; `nil` leaves it unchanged.
    func encode<Parameters: Encodable & Sendable>(_ parameters: Parameters?, into request: URLRequest) throws -> URLRequest
}
