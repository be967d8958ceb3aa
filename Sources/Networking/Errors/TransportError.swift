/// Failures the transport detects itself (wrapped in `ProviderError.underlying`).
public enum TransportError: Error, Sendable, Equatable {
    /// The response body grew past `limit` bytes; the transfer was cancelled.
    case responseTooLarge(limit: Int)
    /// The transport answered without an `HTTPURLResponse`.
    case notHTTPResponse
}
