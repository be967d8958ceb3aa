import Foundation

/// Everything a provider, a transport or a response mapping can fail with (Moya's error set).
public enum ProviderError: Error, LocalizedError {
    /// The status code was rejected by a filter or the target's `validationType`; carries the whole response.
    case statusCode(Response)
    /// The body is not JSON.
    case jsonMapping(Response)
    /// The body (or the value at the key path) is not a string.
    case stringMapping(Response)
    /// `Decodable` decoding failed.
    case objectMapping(any Error, Response)
    /// An `Encodable` request body could not be encoded.
    case encodableMapping(any Error)
    /// The endpoint's URL string is not a usable URL.
    case requestMapping(String)
    /// Parameters could not be encoded.
    case parameterEncoding(any Error)
    /// The transport (or anything else underneath) failed; carries the response when one arrived.
    case underlying(any Error, Response?)
    /// The body is not an image `mapImage()` can read.
    case imageMapping(Response)

    /// The response involved, when there is one.
    public var response: Response? {
        switch self {
        case .statusCode(let response), .jsonMapping(let response), .stringMapping(let response),
             .objectMapping(_, let response), .imageMapping(let response):
            return response
        case .underlying(_, let response):
            return response
        case .encodableMapping, .requestMapping, .parameterEncoding:
            return nil
        }
    }

    /// The wrapped error, when there is one.
    public var underlyingError: (any Error)? {
        switch self {
        case .objectMapping(let error, _), .encodableMapping(let error), .parameterEncoding(let error),
             .underlying(let error, _):
            return error
        case .statusCode, .jsonMapping, .stringMapping, .requestMapping, .imageMapping:
            return nil
        }
    }

    /// A human description of the failure (Moya's wording); a rejected status names the URL
    /// (without its query) when the response carries its request.
    public var errorDescription: String? {
        switch self {
        case .statusCode(let response):
            let url = response.request?.url.map { " for \(APIError.withoutQuery($0))" } ?? ""
            return "Status code \(response.statusCode)\(url) didn't fall within the given range."
        case .jsonMapping:
            return "Failed to map data to JSON."
        case .stringMapping:
            return "Failed to map data to a String."
        case .objectMapping(let error, _):
            return "Failed to map data to a Decodable object: \(error)"
        case .encodableMapping(let error):
            return "Failed to encode Encodable object into data: \(error)"
        case .requestMapping(let url):
            return "Failed to map Endpoint to a URLRequest: \(url)"
        case .parameterEncoding(let error):
            return "Failed to encode parameters for URLRequest. \(error.localizedDescription)"
        case .underlying(let error, _):
            return error.localizedDescription
        case .imageMapping:
            return "Failed to map data to an Image."
        }
    }
}
