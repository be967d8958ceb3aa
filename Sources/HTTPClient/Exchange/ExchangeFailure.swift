import HTTPWire
import SystemTLS

/// Why an exchange fails, as its machines decide it: the one failure type between the machines
/// and `HTTPClientError`. `SocketExchange.clientError(for:)` adds the host, the port, the
/// deadline's length and the download's own error, in the one place that converts.
enum ExchangeFailure: Error, Equatable, Sendable {
    /// The request cannot be sent: its URL's scheme is not `http` (`unsupportedScheme`), or it
    /// has no host, an unusable port or a host with a byte no host holds, or its method is not a token.
    case invalidURL(unsupportedScheme: Bool)
    /// The request's proxy setting names a proxy this client cannot use (the value, its
    /// password masked).
    case unusableProxy(String)
    /// The host name did not resolve (`getaddrinfo`'s `EAI_*` code).
    case cannotFindHost(code: Int32)
    /// The origin's name did not resolve here, for a `socks5://` or `socks4://` tunnel (`getaddrinfo`'s `EAI_*` code).
    case cannotFindOrigin(code: Int32)
    /// No address connected; `errno` is the last one's.
    case cannotConnect(errno: Int32)
    /// The proxy answered `CONNECT` with this status, not 2xx (407: other credentials wanted).
    case proxyRefused(status: Int)
    /// A deadline passed.
    case timedOut(HTTPClientError.Deadline)
    /// The connection broke before the response was whole.
    case connectionLost(errno: Int32?)
    /// The parser refused the bytes (`HTTPClientError.init(_:)` decides what that means).
    case response(HTTPWireError)
    /// The upload's file or stream failed to open or read, with its error.
    case uploadFailed(UploadError)
    /// The download file failed (the driver holds its error).
    case downloadFailed
    /// A 307 or 308 redirect asks for the body again and it cannot be read again.
    case bodyNotReplayable
    /// A redirect past the limit; the count is the redirect refused.
    case tooManyRedirects(Int)
    /// TLS failed: the handshake, a certificate, or the connection after it.
    case tls(TLSFailure)
    /// No TLS library could be loaded for an `https` request.
    case tlsUnavailable(TLSUnavailable)

    /// The error of an upload's file or stream, carried by the failure it causes.
    struct UploadError: Error, Equatable, Sendable {
        let underlying: any Error

        /// Equal when they describe the same error (the machines' tests compare actions).
        static func == (lhs: Self, rhs: Self) -> Bool {
            String(reflecting: lhs.underlying) == String(reflecting: rhs.underlying)
        }
    }

    /// SystemTLS's failure, kept as the cause: no library is `tlsUnavailable` (DESIGN's
    /// `HTTPClientError.tlsUnavailable`), every other kind `tls`.
    init(_ failure: TLSFailure) {
        switch failure {
        case .unavailable(let unavailable):
            self = .tlsUnavailable(unavailable)
        case .untrustedChain, .hostNameMismatch, .badCertificateDate, .handshakeFailed, .protocolVersionRefused,
             .alertReceived, .renegotiationRefused, .protocolError, .invalidConfiguration, .invalidHostName, .internalError:
            self = .tls(failure)
        }
    }
}
