import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import HTTPWire

/// An `HTTPTransport` for `http://`, `https://` and `http+unix://` URLs (a Unix domain socket,
/// its path percent-encoded as the host) over the package's own HTTP/1.1 client
/// (`HTTPClient`), with a keep-alive connection pool per scheme, host and port: a thin adapter
/// that turns a `URLRequest` and `TransportOptions` into an `HTTPClientRequest`, and the client's
/// answer into a `Response` or a `ProviderError` (`HTTPClientError` → `TransportError` in
/// `HTTPClientError.transportFailure`). It survives malformed responses that make
/// FoundationNetworking's URLSession stop the process. `SocketTransport.shared` runs over the
/// process's `HTTPClient.shared` (what `DefaultTransport()` uses); `init(configuration:)` makes a
/// transport with a client and pool of its own.
///
/// - Runs on event loops: non-blocking sockets on the loops every transport and client share
///   (`EventLoopGroup.shared`, one thread per processor, unless `eventLoopCount` asks for loops
///   of its own), timers for the connect, idle and overall deadlines; no thread waits for a
///   request, including one waiting for a pooled connection. The caller's thread only hands the
///   request to a loop.
/// - DNS through `getaddrinfo` off the loop (IPv4 and IPv6); with several addresses the next is
///   tried 250 ms after the previous one without waiting for it to fail (Happy Eyeballs), the
///   first to connect wins, all within `connectTimeout`;
/// - at most `maximumConnectionsPerHost` connections per host and port; further requests wait
///   in arrival order; an idle kept-alive connection stays watched by its loop, which drops it
///   from the pool as soon as the server closes it, or once it has been idle for
///   `idleConnectionTimeout`;
/// - `https` through the system's OpenSSL, verified as `configuration.tls` says (by default
///   against the system's trust store, as curl does); a TLS session is kept per host for the
///   next new connection;
/// - through the HTTP proxy `configuration.proxy` names, by default the environment's
///   (`http_proxy`, `https_proxy`, `all_proxy`, `no_proxy`, read as curl and so URLSession on
///   Linux read them): `https` through a `CONNECT` tunnel, whose refusal is
///   `TransportError.proxyRefused` with the proxy's status; a variable naming a proxy it cannot
///   use (`socks4a://`, another scheme) fails as `URLError(.unsupportedURL)`, never going direct;
/// - responses framed by `Content-Length`, chunked (extensions skipped, trailers read) or the
///   end of the connection; `HEAD`, 1xx, 204 and 304 have no body;
/// - does what `session` (`SessionOptions`) says, as URLSession does for an app: default
///   `User-Agent`, `Accept-Language` and `Accept-Encoding` fields, cookies from and into an
///   `HTTPCookieStorage` (each redirect hop with its own), and HTTP caching (`HTTPCache`,
///   honouring `URLRequest.cachePolicy`); a cached answer is reported at once, inside `send`;
/// - sends `Accept-Encoding: gzip, deflate` unless the request sets one, and decodes those
///   codings as URLSession does: the body is decoded, the headers stay as received (so
///   `Content-Encoding` says what was decoded); the decoded size counts against `maximumResponseSize`;
/// - redirects (301, 302, 303, 307, 308) to `http://` or `https://` URLs are followed up to
///   `maximumRedirects`; a redirect to another scheme is returned as the response;
/// - failures are `ProviderError.underlying(TransportError, response)`: `.cannotConnect`,
///   `.cannotFindHost`, `.connectionLost`, `.timedOut(phase, ...)`, `.badResponse`,
///   `.responseTooLarge`, `.tooManyRedirects`, `.tls`; `error.urlError` gives URLSession's code for
///   each (-1004, -1003, -1005, -1001, -1011 and -1015 for a body that does not decode, -1007,
///   -1200 and its kin); a scheme other than `http`, `https` and `http+unix` is
///   `URLError(.unsupportedURL)`;
/// - an upload the server answers early and then closes (413, 501) reports that response;
/// - an idempotent request whose kept-alive connection turns out closed by the server before
///   any response byte is sent once more on a fresh connection;
/// - `send(_:options:completion:)` streams the body from its `UploadSource` (`Content-Length`
///   when the length is known, chunked otherwise) and writes the response body to
///   `downloadFile` as it arrives (no size limit then, and no `Accept-Encoding` is added); a
///   file or stream is opened and read, and the download file written, on an I/O queue of the
///   exchange, never on a loop; the answer comes after the file's last write;
/// - `cancel()` closes the connection in use (it never goes back to the pool) and nothing is
///   reported afterwards. Completions and progress closures run on a loop thread: do not block
///   in them (`NetworkProvider` moves them off the loop before any caller code runs).
public final class SocketTransport: HTTPTransport {
    /// Settings of a `SocketTransport`: its client's.
    public typealias Configuration = HTTPClient.Configuration

    /// The transport's settings.
    public var configuration: Configuration { client.configuration }
    /// What it does beyond sending each request as it is: default fields, cookies, caching.
    public let session: SessionOptions
    private let client: HTTPClient
    /// The redirect hook of every request without a main document, made once (a closure a
    /// request otherwise).
    private let redirectHook: HTTPClientRequest.RedirectHook?

    /// Its client's event loops as a task executor (`HTTPClient.taskExecutor`): an awaited
    /// request of a task that prefers it goes out and comes back without a hand-off between
    /// threads, and the task's code runs on a loop's thread, where it must not block.
    public var taskExecutor: (any TaskExecutor)? { client.taskExecutor }

    /// The transport over `HTTPClient.shared`, the process's client: `DefaultTransport()` sends
    /// through it, so providers made with the default transport share its connections.
    public static let shared = SocketTransport(client: .shared)

    /// Creates a transport with its own connection pool, on the shared event loops, doing what
    /// `session` says around each request (by default what URLSession does for an app).
    public init(configuration: Configuration = Configuration(), session: SessionOptions = SessionOptions()) {
        self.client = HTTPClient(configuration: configuration)
        self.session = session
        self.redirectHook = session.cookieJar.map { SessionExchange.redirectHook($0, mainDocument: nil) }
    }

    /// Creates a transport over `client` (for tests that put it on loops of their own).
    init(client: HTTPClient, session: SessionOptions = SessionOptions()) {
        self.client = client
        self.session = session
        self.redirectHook = session.cookieJar.map { SessionExchange.redirectHook($0, mainDocument: nil) }
    }

    /// Sends `request`; see the type's documentation for framing, limits, errors and cancellation.
    public func send(_ request: URLRequest,
                     progress: (@Sendable (Double) -> Void)?,
                     completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        send(request, options: TransportOptions(downloadProgress: progress), completion: completion)
    }

    /// Sends `request`, streaming the body and the download as `options` say; see the type's documentation.
    public func send(_ request: URLRequest,
                     options: TransportOptions,
                     completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        guard let url = request.url else {
            completion(.failure(.underlying(URLError(.badURL), nil)))
            return FinishedCancellable()
        }
        let upload = options.upload ?? Self.uploadSource(of: request)
        switch SessionExchange.start(request, url: url, options: session, downloading: options.downloadFile != nil, uploading: upload != nil) {
        case .answer(let result):
            completion(result)
            return FinishedCancellable()
        case .send(let exchange):
            return send(exchange, upload: upload, options: options, completion: completion)
        }
    }

    /// Sends the request `exchange` prepared; stores the answer's cookies (off the loop, before
    /// reporting) and tells the cache.
    private func send(_ exchange: SessionExchange, upload: UploadSource?, options: TransportOptions,
                      completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        let request = exchange.request
        let task = client.start(clientRequest(exchange, upload: upload, options: options)) { result, partial in
            switch result {
            case .success(let answer):
                // Without cookies to store, reported here: no closure made to carry the answer.
                guard exchange.storesCookies(from: answer.head) else {
                    return completion(.success(exchange.finished(Self.response(answer, to: request), head: answer.head)))
                }
                Self.cookieQueue.async {
                    exchange.storeCookies(from: answer.head, url: answer.url)
                    completion(.success(exchange.finished(Self.response(answer, to: request), head: answer.head)))
                }
            case .failure(let error):
                completion(.failure(.underlying(error.transportFailure, partial.map { Self.response($0, to: request) })))
            }
        }
        return ClientTaskCancellable(task: task)
    }

    /// The client's request for the one `exchange` prepared.
    private func clientRequest(_ exchange: SessionExchange, upload: UploadSource?, options: TransportOptions) -> HTTPClientRequest {
        let request = exchange.request
        // The method as normalized (upper-cased), which the client sends: the request is not read twice.
        var clientRequest = HTTPClientRequest(url: exchange.url, method: exchange.method, headers: exchange.head,
                                              body: Self.body(upload),
                                              idleTimeout: request.callerTimeout, downloadFile: options.downloadFile)
        clientRequest.uploadProgress = options.uploadProgress
        clientRequest.downloadProgress = options.downloadProgress
        clientRequest.redirectHook = exchange.redirectHook(sharing: redirectHook)
        return clientRequest
    }

    /// The number of fields `send` would hand the client for `request` (-1 when the cache would
    /// answer it or the URL is missing), doing all the session's work before the client's: what
    /// the benchmarks time of `SessionOptions` on a request.
    package func sessionRequestFieldCount(for request: URLRequest) -> Int {
        guard let url = request.url,
              case .send(let exchange) = SessionExchange.start(request, url: url, options: session, downloading: false, uploading: false)
        else { return -1 }
        return clientRequest(exchange, upload: nil, options: TransportOptions()).headers.count
    }

    /// Where an answer's cookies are stored before it is reported: a persistent storage writes a
    /// file, which an event loop never waits on.
    private static let cookieQueue = DispatchQueue(label: "SocketTransport.cookies", target: .global())

    /// The fields of `session.headers` that `request` does not set itself (`Accept-Encoding`,
    /// `Accept-Language`, `User-Agent` by default); the provider adds them to its requests.
    public func sessionHeaders(for request: URLRequest) -> [String: String] {
        session.missingHeaders(in: request)
    }

    /// Closes every idle pooled connection. Connections in use close or return to the pool when
    /// their exchange ends; the transport stays usable and opens new connections as needed.
    public func close() {
        client.closeIdleConnections()
    }

    /// The number of idle kept-alive connections in the pool.
    public var idleConnectionCount: Int { client.idleConnectionCount }

    /// The body `request` carries itself (`httpBody`, or `httpBodyStream` read to its end once,
    /// so that a retry or a redirect can send it again), nil when it has none.
    private static func uploadSource(of request: URLRequest) -> UploadSource? {
        if let data = request.httpBody { return .data(data) }
        guard let stream = request.httpBodyStream else { return nil }
        return .data(Data(reading: stream))
    }

    private static func body(_ source: UploadSource?) -> HTTPClientRequest.Body? {
        switch source {
        case nil: nil
        case .data(let data): .bytes(data)
        case .file(let url): .file(url)
        case .stream(let makeStream, let length): .stream(makeStream, length: length)
        }
    }

    /// The provider's `Response` for the client's answer to `request`; its `HTTPURLResponse` is
    /// built only when read.
    private static func response(_ answer: HTTPClientResponse, to request: URLRequest) -> Response {
        let head = answer.head
        return Response(statusCode: head.status, data: Data(answer.body), request: request, url: answer.url, version: head.version,
                        headers: head.headers, fileURL: answer.fileURL, timings: answer.timings)
    }
}
