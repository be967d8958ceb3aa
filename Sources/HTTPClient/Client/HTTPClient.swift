import Dispatch
import Foundation
import EventLoopIO

/// An HTTP/1.1 client for `http://` and `https://` URLs with a keep-alive connection pool per
/// scheme, host and port, for callers that want no provider and no Rx (a server talking to another
/// service, a script). `HTTPClient.shared` is the process's client; make one of your own for
/// settings or a pool of its own.
///
/// ```swift
/// let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: URL(string: "https://example.com/")!))
/// print(response.status, response.body.count)
/// ```
///
/// - Runs on event loops (`EventLoopGroup.shared`, one thread per processor, unless
///   `Configuration.eventLoopCount` asks for loops of its own): non-blocking sockets, timers for
///   the connect, idle and overall deadlines; no thread waits for a request. The caller's thread
///   hands the request to a loop and returns; everything about a connection happens on its loop.
///   Host names resolve off the loop (IPv4 and IPv6); with several addresses the next one is tried
///   250 ms after the previous one without waiting for it to fail (Happy Eyeballs), and the first
///   to connect wins.
/// - At most `maximumConnectionsPerHost` connections per host and port; further requests wait in
///   arrival order (at most `connectTimeout` when no overall deadline is set). An idle kept-alive
///   connection the server closes leaves the pool at once; one idle for
///   `idleConnectionTimeout` is closed.
/// - Responses framed by `Content-Length`, chunked or the end of the connection; `gzip` and
///   `deflate` bodies are decoded (the decoded size counts against `maximumResponseSize`);
///   redirects (301, 302, 303, 307, 308) to `http://` and `https://` URLs are followed up to
///   `maximumRedirects`.
/// - `https` through the system's OpenSSL, loaded at run time and verified as
///   `Configuration.tls` says; each host's last TLS session is offered to its next new connection.
/// - Through the HTTP proxy `Configuration.proxy` names (by default the environment's, read as
///   curl reads `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy`): plain `http` in absolute
///   form on connections pooled per proxy, `https` through a `CONNECT` tunnel with TLS to the
///   origin inside, pooled per proxy and origin (an `https://` proxy: all of it inside TLS to the
///   proxy); a refused tunnel is `HTTPClientError.proxyRefused`,
///   a proxy variable naming a proxy it cannot use `HTTPClientError.unsupportedProxy` (never direct).
/// - An idempotent request whose kept-alive connection turns out closed before any response byte
///   is sent once more on a fresh connection; an upload answered early (413) reports that answer.
/// - Failures are `HTTPClientError`s. **Threads:** completions and the code after `await execute`
///   never run on a loop thread: completions run on `deliveryQueue` (one serial queue per client
///   unless one is given), so a slow completion delays only this client's answers. Files (uploads,
///   downloads) are read and written on an I/O queue, never on a loop. The request's progress
///   closures run on `deliveryQueue` too, in order, before the completion.
public final class HTTPClient: Sendable {
    /// The `Accept-Encoding` sent when a request sets none and keeps its body in memory (the
    /// client decodes both codings).
    public static let acceptedEncodings = "gzip, deflate"

    /// What an exchange reports to the package's own adapter: the response or the failure, with
    /// the response head (and body so far) that arrived before a failure (the request's
    /// `timingsHandler` hears of the timings first, on the loop when called through `start`).
    package typealias ExchangeCompletion = @Sendable (Result<HTTPClientResponse, HTTPClientError>, _ partial: HTTPClientResponse?) -> Void

    /// The process's client, on the shared event loops with the default configuration: what
    /// `Networking`'s `DefaultTransport()` sends through, so that every provider made with it shares
    /// one pool (its kept-alive connections and TLS sessions). Made on first use; never stopped.
    public static let shared = HTTPClient()

    /// The client's settings.
    public let configuration: Configuration
    /// Where completions of `execute(_:completion:)` run.
    public let deliveryQueue: DispatchQueue
    private let pool: ConnectionPool
    private let loops: EventLoopGroup?

    /// Creates a client with its own connection pool on the shared event loops (or loops of its
    /// own, as `configuration.eventLoopCount` says); completions run on `deliveryQueue`, or on a
    /// serial queue of this client's when nil.
    public convenience init(configuration: Configuration = Configuration(), deliveryQueue: DispatchQueue? = nil) {
        let loops = configuration.eventLoopCount.map { try? EventLoopGroup(count: $0, label: "HTTPClient") } ?? EventLoopGroup.shared
        self.init(configuration: configuration, loops: loops, deliveryQueue: deliveryQueue)
    }

    /// Creates a client on `loops` instead of the shared ones, resolving names with `resolver`
    /// (for tests that watch the loops or hand out addresses).
    package init(configuration: Configuration, loops: EventLoopGroup?, deliveryQueue: DispatchQueue? = nil,
                 resolver: HostResolver = .system) {
        self.configuration = configuration
        self.deliveryQueue = AnswerDelivery.queue(deliveryQueue, label: "HTTPClient.delivery")
        self.pool = ConnectionPool(limit: configuration.maximumConnectionsPerHost, idleTimeout: configuration.idleConnectionTimeout,
                                   connectTimeout: configuration.connectTimeout, tls: configuration.tls, resolver: resolver, loops: loops)
        self.loops = loops
    }

    deinit {
        pool.closeIdleConnections()
    }

    /// Sends `request` and calls `completion` once on `deliveryQueue` with the response or the
    /// failure, unless the returned task is cancelled first (then never).
    @discardableResult
    public func execute(_ request: HTTPClientRequest,
                        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void) -> any HTTPClientTask {
        let answer = ExecuteAnswer(completion, queue: deliveryQueue)
        return start(delivering(request)) { result, _ in
            answer.result = result
            AnswerDelivery.async(on: answer.queue) { answer.deliver() }
        }
    }

    /// Sends `request` and returns its response; throws `HTTPClientError` (`.cancelled` when the
    /// calling task is cancelled first, which also closes the exchange's connection).
    public func execute(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let pending = PendingExecution()
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                pending.begin(continuation) {
                    start(delivering(request)) { result, _ in pending.finish(result) }
                }
            }
        } onCancel: {
            pending.cancel()
        }
        return try result.get()
    }

    /// `request` with its progress closures moved to `deliveryQueue` (in order, and before the
    /// completion of `execute(_:completion:)`, which runs there too).
    func delivering(_ request: HTTPClientRequest) -> HTTPClientRequest {
        var request = request
        let queue = deliveryQueue
        if let progress = request.uploadProgress {
            request.uploadProgress = { sent, total in AnswerDelivery.async(on: queue) { progress(sent, total) } }
        }
        if let progress = request.downloadProgress {
            request.downloadProgress = { fraction in AnswerDelivery.async(on: queue) { progress(fraction) } }
        }
        if let handler = request.timingsHandler {
            request.timingsHandler = { timings in AnswerDelivery.async(on: queue) { handler(timings) } }
        }
        return request
    }

    /// Sends `request` and calls `completion` on a loop thread (or at once, on the caller's, when
    /// no loop could start), with the response head and body so far of a failure: the entry for
    /// an adapter that moves answers off the loop itself (`SocketTransport`, whose provider does).
    /// The caller's thread reads the URL, picks the loop where an idle connection to its host
    /// waits (else the next loop; the caller's own when it runs on one of the client's loops), takes the request's place in the pool's queue order, hands the
    /// exchange to its loop and returns.
    package func start(_ request: HTTPClientRequest, completion: @escaping ExchangeCompletion) -> any HTTPClientTaskObject {
        guard let loops else {
            let port = request.url.effectivePort
            request.timingsHandler?(HTTPClientTimings(queued: .now, finished: .now))
            completion(.failure(.cannotConnect(host: request.url.host ?? "?", port: port, errno: EMFILE)), nil)
            return FinishedClientTask()
        }
        // A method that is not a token would rewrite the request line (`GET /x HTTP/1.1\r\n...`):
        // refused here, before any connection, as a request that cannot be written.
        let target = SocketRequestEncoding.isToken(request.normalizedMethod)
            ? SocketRequestTarget.read(request.url, as: configuration) : .failure(.invalidURL(unsupportedScheme: false))
        // A task on one of the client's loops (`taskExecutor`) starts there: the pool leases it a
        // connection of that loop when one is idle, so the request is handed over to no thread.
        let loop = loops.currentLoop ?? (try? target.get()).flatMap { pool.preferredLoop(for: $0.key) } ?? loops.nextLoop()
        let exchange = SocketExchange(request: request, target: target, configuration: configuration, pool: pool,
                                      loop: loop, loops: loops, ticket: pool.makeTicket(), completion: completion)
        exchange.start()
        return exchange
    }

    /// Closes every idle pooled connection. Connections in use close or return to the pool when
    /// their exchange ends; the client stays usable and opens new connections as needed.
    public func closeIdleConnections() {
        pool.closeIdleConnections()
    }

    /// The number of idle kept-alive connections in the pool.
    public var idleConnectionCount: Int { pool.idleCount }

    /// The client's event loops as a task executor (nil only when the system refused them). A
    /// task that prefers it (`withTaskExecutorPreference(client.taskExecutor) { ... }`) runs on
    /// the loop where the answer it awaited arrived, and its next
    /// request starts there: no hand-off between threads either way. Its code then runs on a
    /// loop's thread, so it must not block there; without the preference no caller code ever does.
    public var taskExecutor: (any TaskExecutor)? { loops }
}

extension SocketExchange: HTTPClientTaskObject {}

/// One `execute(_:completion:)`'s answer on its way to the delivery queue: the closures that
/// carry it capture this object alone, which costs no context of their own.
private final class ExecuteAnswer: @unchecked Sendable {
    // @unchecked: `result` is written once on the loop before the hand-off to the delivery queue
    // and read once there after it; the queue's hand-off orders the two.
    private let completion: @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    /// Where `completion` runs.
    let queue: DispatchQueue
    var result: Result<HTTPClientResponse, HTTPClientError>?

    init(_ completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void, queue: DispatchQueue) {
        self.completion = completion
        self.queue = queue
    }

    func deliver() {
        if let result { completion(result) }
    }
}
