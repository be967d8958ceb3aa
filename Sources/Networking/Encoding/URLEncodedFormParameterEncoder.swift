import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes parameters as `application/x-www-form-urlencoded` text with a `URLEncodedFormEncoder`,
/// in the query string or the body (Alamofire's `URLEncodedFormParameterEncoder`). In the query,
/// the text is appended to any existing query with `&` (an empty result leaves no query); in the
/// body, `Content-Type: application/x-www-form-urlencoded; charset=utf-8` is set unless present.
/// In the query, characters an `allowedCharacters` keeps but a query cannot hold (`[`, `]`, a `%`
/// starting no escape) are percent-encoded; the body keeps them.
/// Throws `ParameterEncodingFailure.missingURL` for a request without a URL, and the encoder's
/// errors as it threw them.
public struct URLEncodedFormParameterEncoder: ParameterEncoder {
    /// Where the encoded text goes.
    public enum Destination: Sendable, Equatable {
        /// The query string for `GET`, `HEAD` and `DELETE`, the body otherwise (the default).
        case methodDependent
        /// Always the query string.
        case queryString
        /// Always the body.
        case httpBody

        /// Whether parameters of a request with `method` go in its URL.
        func encodesParametersInURL(for method: String) -> Bool {
            switch self {
            case .methodDependent: return ["GET", "HEAD", "DELETE"].contains(method.uppercased())
            case .queryString: return true
            case .httpBody: return false
            }
        }
    }

    /// A default `URLEncodedFormEncoder`, `.methodDependent`.
    public static let `default` = URLEncodedFormParameterEncoder()

    /// The form encoder used.
    public let encoder: URLEncodedFormEncoder
    /// Where the text goes.
    public let destination: Destination

    /// An encoder; the defaults are Alamofire's.
    public init(encoder: URLEncodedFormEncoder = URLEncodedFormEncoder(), destination: Destination = .methodDependent) {
        self.encoder = encoder
        self.destination = destination
    }

    /// Puts `parameters` in the query string or the body, per `destination`; `nil` leaves the
    /// request unchanged.
    public func encode<Parameters: Encodable & Sendable>(_ parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        guard let parameters else { return request }
        guard let url = request.url else { throw ParameterEncodingFailure.missingURL }
        var request = request
        if destination.encodesParametersInURL(for: request.httpMethod ?? "GET") {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
                throw ParameterEncodingFailure.missingURL
            }
            // A custom `allowedCharacters` may keep what a query cannot hold (`[`, `]`, a lone `%`).
            let query = (try encoder.encode(parameters) as String).validPercentEncodedQuery
            let joined = [components.percentEncodedQuery, query].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
            components.percentEncodedQuery = joined.isEmpty ? nil : joined
            guard let encodedURL = components.url else { throw ParameterEncodingFailure.missingURL }
            request.url = encodedURL
        } else {
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
            }
            request.httpBody = try encoder.encode(parameters)
        }
        return request
    }
}

extension ParameterEncoder where Self == URLEncodedFormParameterEncoder {
    /// `URLEncodedFormParameterEncoder.default`, for a leading-dot argument.
    public static var urlEncodedForm: URLEncodedFormParameterEncoder { .default }

    /// A `URLEncodedFormParameterEncoder` with `encoder` and `destination`.
    public static func urlEncodedForm(encoder: URLEncodedFormEncoder = URLEncodedFormEncoder(),
                                      destination: URLEncodedFormParameterEncoder.Destination = .methodDependent)
        -> URLEncodedFormParameterEncoder {
        URLEncodedFormParameterEncoder(encoder: encoder, destination: destination)
    }
}
