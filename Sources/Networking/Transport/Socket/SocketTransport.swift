import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `HTTPTransport` for `http://` URLs over the project's own HTTP/1.1 client (`HTTPWire`),
/// with a keep-alive connection pool per host. It survives malformed responses that make
/// FoundationNetworking's URLSession stop the process.
///
/// - DNS through `getaddrinfo` (IPv4 and IPv6), non-blocking connect bounded by `connectTimeout`;
/// - at most `maximumConnectionsPerHost` connections per host and port; further requests wait;
/// - responses framed by `Content-Length`, chunked (extensions skipped, trailers read) or the
///   end of the connection; `HEAD`, 1xx, 204 and 304 have no body;
/// - redirects (301, 302, 303, 307, 308) to `http://` URLs are followed up to `maximumRedirects`;
///   a redirect to another scheme is returned as the response;
/// - failures are `ProviderError.underlying(URLError, response)` with URLSession's codes on Linux:
///   unknown host -1003, refused -1004, reset or cut short -1005, timeout -1001, malformed -1011,
///   too many redirects -1007, a scheme other than `http` -1002; a body over
///   `maximumResponseSize` is `TransportError.responseTooLarge`;
/// - an idempotent request whose kept-alive connection turns out closed by the server before
///   any response byte is sent once more on a fresh connection;
/// - `cancel()` closes the connection in use (it never goes back to the pool) and nothing is
///   reported afterwards.
///
/// Each request runs as one blocking worker on its own serial dispatch queue.
public final class SocketTransport: HTTPTransport {
    /// The transport's settings.
    public let configuration: Configuration
    private let pool: ConnectionPool

    /// Creates a transport with its own connection pool.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.pool = ConnectionPool(limit: configuration.maximumConnectionsPerHost)
    }

    deinit {
        pool.closeIdleConnections()
    }

    /// Sends `request`; see the type's documentation for framing, limits, errors and cancellation.
    public func send(_ request: URLRequest,
                     progress: (@Sendable (Double) -> Void)?,
                     completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        let exchange = SocketExchange(request: request, configuration: configuration, pool: pool,
                                      progress: progress, completion: completion)
        exchange.start()
        return exchange
    }

    /// Closes every idle pooled connection. Connections in use close or return to the pool when
    /// their exchange ends; the transport stays usable and opens new connections as needed.
    public func close() {
        pool.closeIdleConnections()
    }

    /// The number of idle kept-alive connections in the pool.
    public var idleConnectionCount: Int { pool.idleCount }
}
