/// Why a `TLSClientContext` or `TLSServerContext` could not be made.
public enum TLSContextError: Error, Sendable, Hashable {
    /// No usable OpenSSL is on the system (this is `HTTPClientError.tlsUnavailable`).
    case unavailable(TLSUnavailable)
    /// The configuration cannot be used as given.
    case invalidConfiguration(TLSConfigurationError)
}
