import Foundation
import HTTPWire

/// The cause a `TransportError` keeps, as `AFError.underlyingError` and URLSession's
/// `NSUnderlyingErrorKey` give theirs: what the layer below said, when the kind carries it.
///
/// ```swift
/// if case .underlying(let transport as TransportError, _) = providerError,
///    let failure = transport.underlyingError as? TLSFailure { ... }
/// ```
extension TransportError: CustomNSError {
    /// TLS's `TLSFailure` for `.tls` (OpenSSL's reason inside), the parser's `HTTPWireError` for
    /// `.badResponse`; nil for the kinds whose fields are the whole story (host, port, `errno`,
    /// deadline, limit: `SocketTransport` copies each from the `HTTPClientError` it converts).
    public var underlyingError: (any Error)? {
        switch self {
        case .tls(let failure): failure
        case .badResponse(let wire): wire
        case .cannotConnect, .cannotFindHost, .connectionLost, .proxyRefused, .timedOut, .responseTooLarge,
             .tooManyRedirects, .cancelled, .notHTTPResponse, .tlsUnavailable:
            nil
        }
    }

    /// The description and, when there is one, `underlyingError` under `NSUnderlyingErrorKey`.
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let underlyingError { userInfo[NSUnderlyingErrorKey] = underlyingError as NSError }
        return userInfo
    }
}
