import Foundation
import HTTPClient

extension HTTPClientError {
    /// What a provider wraps in `ProviderError.underlying` for this failure of `SocketTransport`:
    /// the one place the client's vocabulary becomes the transport's. The client's kinds become
    /// `TransportError`s; a URL it cannot use becomes URLSession's `URLError` (`.badURL`,
    /// `.unsupportedURL`, with the failing URL and this error under `NSUnderlyingErrorKey`), as
    /// does a proxy setting it cannot use (`.unsupportedURL`), and an unclean TLS shutdown inside a
    /// close-delimited body `URLError(.networkConnectionLost)` with this error under
    /// `NSUnderlyingErrorKey`; a file or stream error is passed on as it is. A parser's error
    /// comes here only as `HTTPClientError(_:)` made it: one conversion per layer, so a cut
    /// response reads the same whichever way it came.
    var transportFailure: any Error {
        switch self {
        case .badURL(let url):
            var info: [String: Any] = [NSUnderlyingErrorKey: self]
            if let url { info[NSURLErrorFailingURLErrorKey] = url }
            return URLError(.badURL, userInfo: info)
        case .unsupportedScheme(let url):
            return URLError(.unsupportedURL, userInfo: [NSURLErrorFailingURLErrorKey: url, NSUnderlyingErrorKey: self])
        case .unsupportedProxy(let value):
            // A setting to change, not a network to wait for: URLSession's code for what it cannot send.
            return URLError(.unsupportedURL, userInfo: [NSUnderlyingErrorKey: self,
                                                        NSLocalizedDescriptionKey: "the proxy \(value) is not one this client can use"])
        case .cannotConnect(let host, let port, let number):
            return TransportError.cannotConnect(host: host, port: port, errno: number)
        case .cannotFindHost(let host, let code):
            return TransportError.cannotFindHost(host: host, code: code)
        case .connectionLost(let number):
            return TransportError.connectionLost(errno: number)
        case .proxyRefused(let status, let host, let port):
            return TransportError.proxyRefused(status: status, proxy: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        case .uncleanShutdown:
            // URLSession's code for a connection cut, with the client's finding underneath.
            return URLError(.networkConnectionLost, userInfo: [NSUnderlyingErrorKey: self,
                                                               NSLocalizedDescriptionKey: "the connection was lost (TLS ended without close_notify inside the body)"])
        case .timedOut(let deadline, let after, let host, let port):
            let phase: TimeoutPhase = switch deadline {
            case .connect: .connect
            case .idle: .idle
            case .overall: .overall
            }
            return TransportError.timedOut(phase, after: after, endpoint: "\(host):\(port)")
        case .badResponse(let wire):
            return TransportError.badResponse(wire)
        case .responseTooLarge(let limit), .decompressionLimitExceeded(let limit, _):
            return TransportError.responseTooLarge(limit: limit)
        case .tooManyRedirects(let count):
            return TransportError.tooManyRedirects(count)
        case .bodyNotReplayable:
            // URLSession's code for a body stream it cannot read again.
            return URLError(.requestBodyStreamExhausted, userInfo: [NSUnderlyingErrorKey: self])
        case .uploadFailed(let underlying), .downloadFailed(let underlying):
            return underlying
        case .cancelled:
            return TransportError.cancelled
        case .tls(let failure):
            return TransportError.tls(failure)
        case .tlsUnavailable(let unavailable):
            return TransportError.tlsUnavailable(unavailable)
        }
    }
}
