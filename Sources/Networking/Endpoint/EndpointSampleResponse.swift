import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stubbed request answers.
public enum EndpointSampleResponse: Sendable {
    /// A response with this status code and body.
    case networkResponse(Int, Data)
    /// This exact response and body.
    case response(HTTPURLResponse, Data)
    /// A transport failure (for example `URLError(.timedOut)` or `URLError(.networkConnectionLost)`).
    case networkError(any Error)
}
