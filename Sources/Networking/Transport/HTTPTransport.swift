import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one `URLRequest` and reports exactly once, unless cancelled first (then never).
public protocol HTTPTransport: Sendable {
    /// Sends `request`; `progress` receives the download fraction (0...1) when the size is known.
    /// Failures are `ProviderError.underlying(error, response)` with the response when one arrived.
    func send(_ request: URLRequest,
              progress: (@Sendable (Double) -> Void)?,
              completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable
}
