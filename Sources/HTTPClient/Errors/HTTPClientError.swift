import Foundation
import HTTPWire
import SystemTLS

/// Why an `HTTPClient` exchange failed, as a kind to switch on; each case carries what a caller
/// needs to act (the host and port, the deadline, the system error number where there was one).
public enum HTTPClientError: Error, Sendable {
    /// The request cannot be written: its URL has no host, an unusable port or a host that
    /// decodes to a control byte or a delimiter (`%00`, `%40`, `%2F`), or its method is not a
    /// token (RFC 9110 §9.1: a space or a line break would rewrite the request line). Nothing
    /// was sent.
    case badURL(URL?)
    /// The URL's scheme is none of `http`, `https` and `http+unix`.
    case unsupportedScheme(URL)
    /// The proxy variable for the request's scheme (or `ProxyEnvironment`'s) names a proxy this
    /// client cannot use: a `socks4a://` proxy, another scheme, or a value without
    /// a usable host or port. `value` is the variable's value with its password masked. Nothing
    /// connected: as curl, the request fails instead of going direct past the proxy the
    /// environment asks for (`no_proxy` still sends the hosts it covers direct).
    case unsupportedProxy(String)
    /// No connection could be opened to `host`:`port`; `errno` is the last attempt's error
    /// (`ECONNREFUSED`, `ENETUNREACH`, `EMFILE` when no event loop could start, ...).
    case cannotConnect(host: String, port: Int, errno: Int32)
    /// The host name did not resolve; `code` is `getaddrinfo`'s `EAI_*` result.
    case cannotFindHost(host: String, code: Int32)
    /// The connection broke before the response was complete (reset, closed early, cut short);
    /// `errno` when the system reported one.
    case connectionLost(errno: Int32?)
    /// The proxy at `host`:`port` would not open the tunnel. An HTTP proxy answered the `CONNECT`
    /// with `status`, not 2xx: 407 when it wants other credentials (those of the proxy URL's user
    /// info), 403 when it forbids the origin or its port, 502 or 503 when it could not reach it.
    /// A SOCKS5 proxy's `status` is its reply's code (RFC 1928: 1 general failure, 2 not allowed,
    /// 3 network or 4 host unreachable, 5 connection refused, 6 TTL expired, 7 command or 8
    /// address type not supported), or 407 when it refused the credentials or wanted some; a
    /// SOCKS4 proxy's is its reply's (91 rejected or failed, 92 and 93 for its ident checks).
    case proxyRefused(status: Int, host: String, port: Int)
    /// `deadline` passed after `after` while talking to `host`:`port`.
    case timedOut(Deadline, after: Duration, host: String, port: Int)
    /// The server's bytes are not a valid HTTP/1.1 response (one cut short is `connectionLost`).
    case badResponse(HTTPWireError)
    /// The response body (decoded) grew past `limit` bytes; the transfer was stopped.
    case responseTooLarge(limit: Int)
    /// A compressed body expanded past the request's `Decompression.Limit`: at most `limit`
    /// decoded bytes were allowed for its `compressedBytes`; the decoding stopped there.
    case decompressionLimitExceeded(limit: Int, compressedBytes: Int)
    /// More redirects than `Configuration.maximumRedirects` (or the request's `.follow(max:)`); `count` is the redirect refused.
    case tooManyRedirects(Int)
    /// The upload's file or stream could not be opened or read; `underlying` is its error.
    case uploadFailed(underlying: any Error & Sendable)
    /// The request must be sent again (a 307 or 308 redirect keeps method and body) and its body
    /// is a `Body.chunks` sequence, which is read once; the redirect's response came as the partial one.
    case bodyNotReplayable
    /// The download file could not be created or written; `underlying` is its error.
    case downloadFailed(underlying: any Error & Sendable)
    /// The exchange was cancelled (only the `async` `execute` reports it; a cancelled
    /// completion-form exchange reports nothing).
    case cancelled
    /// TLS failed for an `https` request: an untrusted chain (with OpenSSL's reason), a host name
    /// the certificate does not name, a certificate out of its dates, a handshake refused (the
    /// alert), no protocol version in common, or the connection's records after the handshake.
    /// A connection cut without `close_notify` before a response framed by its length or chunks
    /// was whole is `connectionLost`; inside a body delimited by the close, `uncleanShutdown`.
    case tls(TLSFailure)
    /// The TLS connection ended without the server's `close_notify` inside a body delimited by the
    /// connection's end (no `Content-Length`, not chunked), after `bodyBytesReceived` bytes of it:
    /// RFC 9112 §9.8 counts such a body incomplete, since anyone on the path may have cut it.
    case uncleanShutdown(bodyBytesReceived: Int)
    /// No TLS library could be loaded for an `https` request (always so on Apple platforms, where
    /// URLSession serves `https`); it names the files looked for.
    case tlsUnavailable(TLSUnavailable)

    /// Which of the client's deadlines passed.
    public enum Deadline: Sendable, Hashable {
        /// Opening the connection (`Configuration.connectTimeout`: one deadline for the lookup and every address tried).
        case connect
        /// Waiting for the peer to take or send bytes (`Configuration.idleTimeout` or the request's `idleTimeout`).
        case idle
        /// The whole exchange, redirects included (`Configuration.overallDeadline`, or the
        /// request's `deadline`).
        case overall
    }

    /// The kind a parser's error is: the one place that decides a response cut short (inside its
    /// head or its body) means the connection was lost, a close-delimited body ended without
    /// `close_notify` is an unclean shutdown, and a body over the limit is too large.
    public init(_ wire: HTTPWireError) {
        switch wire {
        case .bodyTooLarge(let limit): self = .responseTooLarge(limit: limit)
        case .truncatedHead, .truncatedBody: self = .connectionLost(errno: nil)
        case .incompleteClose(let received): self = .uncleanShutdown(bodyBytesReceived: received)
        default: self = .badResponse(wire)
        }
    }
}
