import Foundation
import HTTPClient
import HTTPWire

/// What went wrong in a transport, as a kind to switch on (wrapped in `ProviderError.underlying`).
///
/// Each kind carries the system error number (`errno`) where the system reported one, and says
/// what happened in words (`errorDescription`). `urlErrorCode` is the `URLError` code URLSession
/// uses for the same event, which the `urlError`, `isTimeout`, ... classifiers report.
public enum TransportError: Error, Sendable, Equatable {
    /// No connection could be opened to `host`:`port`; `errno` is the last attempt's error
    /// (`ECONNREFUSED`, `ENETUNREACH`, ...).
    case cannotConnect(host: String, port: Int, errno: Int32)
    /// The host name did not resolve; `code` is `getaddrinfo`'s `EAI_*` result.
    case cannotFindHost(host: String, code: Int32)
    /// The connection broke before the response was complete (reset, closed early, cut short).
    case connectionLost(errno: Int32?)
    /// The proxy at `proxy` (`host:port`) would not open the tunnel: an HTTP proxy's status for
    /// the `CONNECT`, not 2xx (407 when it wants other credentials, 403 when it forbids the
    /// origin, 502 or 503 when it could not reach it), or a SOCKS proxy's reply code (SOCKS5's 1
    /// to 8 and SOCKS4's 91 to 93, as `HTTPClientError.proxyRefused` lists them; 407 for
    /// credentials). `urlErrorCode` is `.userAuthenticationRequired` for 407 and
    /// `.cannotConnectToHost` otherwise (URLSession on Linux reports `.unknown` for both, Apple's
    /// CFNetwork error 310; see docs/COMING_FROM.md).
    case proxyRefused(status: Int, proxy: String)
    /// A deadline passed: `phase` says which, `after` how long it was, `endpoint` for what.
    case timedOut(TimeoutPhase, after: Duration, endpoint: String)
    /// The server's bytes are not a valid HTTP/1.1 response (one cut short is `connectionLost`, as
    /// `HTTPClientError(_:)`, the one conversion of a parser's error, decides), or a body in
    /// gzip or deflate does not decode (`.invalidContentCoding`: `urlErrorCode` is then
    /// `.cannotDecodeRawData`, URLSession's code for data it cannot decode in a known coding).
    case badResponse(HTTPWireError)
    /// The response body grew past `limit` bytes, or a compressed one expanded past it; the
    /// transfer was cancelled. (How many compressed bytes expanded so far is the client's
    /// finding, `HTTPClientError.decompressionLimitExceeded`: the limit is what a caller acts on.)
    case responseTooLarge(limit: Int)
    /// More redirects than the transport follows; `count` is the redirect that was refused.
    case tooManyRedirects(Int)
    /// The request was cancelled: found under the `URLError(.cancelled)` a provider reports
    /// after `cancel()` (`NSUnderlyingErrorKey`).
    case cancelled
    /// The transport answered without an `HTTPURLResponse`.
    case notHTTPResponse
    /// TLS failed for an `https` request (`SocketTransport`): which check or step, as
    /// `HTTPClientError.tls` says; `urlErrorCode` is the code URLSession reports for it.
    case tls(TLSFailure)
    /// No TLS library could be loaded for an `https` request through `SocketTransport`.
    case tlsUnavailable(TLSUnavailable)

    /// The `URLError` code URLSession reports for the same event, nil when it has none
    /// (a body over the size limit, a missing response).
    public var urlErrorCode: URLError.Code? {
        switch self {
        case .cannotConnect: .cannotConnectToHost
        case .cannotFindHost: .cannotFindHost
        case .connectionLost: .networkConnectionLost
        case .timedOut: .timedOut
        case .badResponse(.invalidContentCoding): .cannotDecodeRawData
        case .badResponse: .badServerResponse
        case .tooManyRedirects: .httpTooManyRedirects
        case .cancelled: .cancelled
        case .tls(let failure): Self.urlErrorCode(for: failure)
        case .tlsUnavailable: .secureConnectionFailed
        case .proxyRefused(let status, _): status == 407 ? .userAuthenticationRequired : .cannotConnectToHost
        case .responseTooLarge, .notHTTPResponse: nil
        }
    }

    /// URLSession's code for each TLS failure: an unknown root (self-signed, unknown issuer),
    /// another untrusted chain or a certificate for another name, a certificate out of its
    /// dates, and every other handshake or record failure.
    private static func urlErrorCode(for failure: TLSFailure) -> URLError.Code {
        switch failure {
        case .untrustedChain(let reason): reason.isUnknownRoot ? .serverCertificateHasUnknownRoot : .serverCertificateUntrusted
        case .hostNameMismatch: .serverCertificateUntrusted
        case .badCertificateDate: .serverCertificateHasBadDate
        case .handshakeFailed, .protocolVersionRefused, .alertReceived, .renegotiationRefused, .protocolError,
             .invalidConfiguration, .invalidHostName, .internalError, .unavailable: .secureConnectionFailed
        }
    }

    /// The `URLError` built from this kind (the one place transports make one), with the failing
    /// URL, this error underneath and its description; nil when URLSession has no code for it.
    public func urlError(url: URL?) -> URLError? {
        guard let code = urlErrorCode else { return nil }
        var info: [String: Any] = [NSUnderlyingErrorKey: self, NSLocalizedDescriptionKey: description]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        return URLError(code, userInfo: info)
    }
}

extension TransportError: LocalizedError, CustomStringConvertible {
    /// Says what happened, e.g. "could not connect to 127.0.0.1:9 (connection refused)".
    public var errorDescription: String? { description }

    /// Says what happened, e.g. "timed out after 3 s waiting for 127.0.0.1:8080".
    public var description: String {
        switch self {
        case .cannotConnect(let host, let port, let number):
            return "could not connect to \(host):\(port) (\(Self.reason(number)))"
        case .cannotFindHost(let host, _):
            return "could not find host \(host)"
        case .connectionLost(let number):
            return number.map { "the connection was lost (\(Self.reason($0)))" } ?? "the connection was lost"
        case .timedOut(let phase, let after, let endpoint):
            let what = switch phase {
            case .connect: "connecting to"
            case .idle: "waiting for"
            case .overall: "the whole exchange with"
            }
            return "timed out after \(Self.format(after)) \(what) \(endpoint)"
        case .badResponse(let wire):
            return "bad response: \(wire)"
        case .responseTooLarge(let limit):
            return "response larger than \(Self.formatBytes(limit))"
        case .tooManyRedirects(let count):
            return "too many redirects (\(count))"
        case .cancelled:
            return "cancelled"
        case .notHTTPResponse:
            return "the answer was not an HTTP response"
        case .tls(let failure):
            return "TLS failed: \(failure)"
        case .tlsUnavailable(let unavailable):
            return "TLS is unavailable: \(unavailable)"
        case .proxyRefused(let status, let proxy):
            return "the proxy \(proxy) refused the tunnel (\(status)\(status == 407 ? ", proxy authentication required" : ""))"
        }
    }

    /// The system's message for `errno`, lowercased: "connection refused".
    private static func reason(_ number: Int32) -> String {
        HTTPClient.systemMessage(errno: number).lowercased()
    }

    /// "3 s", "250 ms", "1.5 s".
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }

    /// How a `.timedOut` names what it waited for: `host:port` of `url` (port 80 or 443 by
    /// scheme when the URL has none), `?` without a host.
    static func endpoint(of url: URL?) -> String {
        guard let url, let host = url.host else { return "?" }
        return "\(host):\(url.effectivePort)"
    }

    /// "50 MB", "1000 bytes", "64 KB" (binary units, whole ones only).
    static func formatBytes(_ count: Int) -> String {
        if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MB" }
        if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KB" }
        return "\(count) bytes"
    }
}
