import Dispatch
import Foundation
import Reactive
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// An `HTTPTransport` over `URLSession`.
///
/// - `configuration.timeoutIntervalForRequest` is the idle timeout (it is also applied to requests
///   that keep `URLRequest`'s default 60 s), failing with `URLError(.timedOut)`;
/// - `overallDeadline` bounds a whole exchange, enforced here because FoundationNetworking ignores
///   `timeoutIntervalForResource`; it fails with `TransportError.timedOut(.overall, ...)`, as the
///   socket transport's does. Without one given, the configuration's `timeoutIntervalForResource`
///   is the deadline, as Apple's URLSession enforces it (its seven-day default sets none);
/// - a body (announced or received) larger than `maximumResponseSize` fails with
///   `TransportError.responseTooLarge`, unless it goes to a `TransportOptions.downloadFile`;
/// - uploads from `TransportOptions` are sent from memory or from a file, with upload progress;
/// - `cancel()` cancels the URLSession task and nothing is reported afterwards; a transport
///   released with requests in flight lets them finish.
///
/// On Linux, FoundationNetworking stops the process ("Transfer completed, but there's no
/// response") on a chunked answer that carries trailer fields, as on a head cut short: the
/// default transport sends `http://` and `https://` through `SocketTransport` there.
public final class URLSessionTransport: HTTPTransport {
    /// The default response size limit: 50 MB.
    public static let defaultMaximumResponseSize = 50 * 1024 * 1024

    private let session: URLSession
    private let delegate: URLSessionTransportDelegate
    private let requestTimeout: TimeInterval
    /// The deadline for a whole exchange, if any.
    public let overallDeadline: Duration?
    /// The largest body accepted, in bytes.
    public let maximumResponseSize: Int

    /// Creates a transport; `maximumConnectionsPerHost` overrides the configuration's
    /// `httpMaximumConnectionsPerHost` (FoundationNetworking's default of 6 throttles concurrency),
    /// and `overallDeadline` its `timeoutIntervalForResource`.
    public init(configuration: URLSessionConfiguration = .default,
                maximumConnectionsPerHost: Int? = nil,
                overallDeadline: Duration? = nil,
                maximumResponseSize: Int = URLSessionTransport.defaultMaximumResponseSize) {
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        if let maximumConnectionsPerHost {
            configuration.httpMaximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
        }
        let delegate = URLSessionTransportDelegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        self.requestTimeout = configuration.timeoutIntervalForRequest
        self.overallDeadline = overallDeadline ?? configuration.resourceDeadline
        self.maximumResponseSize = max(0, maximumResponseSize)
    }

    /// The session's effective configuration.
    public var configuration: URLSessionConfiguration { session.configuration }

    /// The configuration's `httpAdditionalHeaders` (User-Agent, Accept-Language ... when set there)
    /// that `request` does not set itself (names compared without case): URLSession lets a
    /// request's own field win.
    public func sessionHeaders(for request: URLRequest) -> [String: String] {
        let own = request.allHTTPHeaderFields ?? [:]
        var headers: [String: String] = [:]
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            let name = String(describing: name)
            if HeaderFields.key(name, in: own) == nil { headers[name] = String(describing: value) }
        }
        return headers
    }

    /// Requests still in flight finish (and report) before the session goes: cancelling them
    /// here would stop FoundationNetworking on Linux, whose task registry then loses them.
    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Starts a data task; see the type's documentation for timeouts, limits and cancellation.
    public func send(_ request: URLRequest,
                     progress: (@Sendable (Double) -> Void)?,
                     completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        send(request, options: TransportOptions(downloadProgress: progress), completion: completion)
    }

    /// Starts an upload, download or data task as `options` says: a `.data` body or a `.file`
    /// (read from disk as it is sent) goes through an upload task; a `.stream` is first copied to
    /// a temporary file off the caller's thread (64 KB at a time, removed afterwards), then sent
    /// from there with its `Content-Length`. Upload progress comes from URLSession's
    /// `didSendBodyData`. A `downloadFile` with no upload goes through a download task, which
    /// writes each chunk to disk as it arrives (a data task would queue chunks for its delegate
    /// without limit when the disk is slower than the network), and the finished file is moved
    /// to `downloadFile`; with an upload, each chunk is appended to the file by the delegate. The
    /// response size limit does not apply to a body going to a file.
    public func send(_ request: URLRequest,
                     options: TransportOptions,
                     completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        if case .stream(let makeStream, _)? = options.upload {
            return sendStaged(request, makeStream: makeStream, options: options, completion: completion)
        }
        var request = request
        if request.callerTimeout == nil {
            request.timeoutInterval = requestTimeout
        }
        if options.upload != nil {
            request.httpBodyStream = nil
        }
        let task: URLSessionTask
        let sent = Self.withWholeSecondTimeout(request)
        switch options.upload {
        case .data(let data)?:
            task = session.uploadTask(with: sent, from: data)
        case .file(let url)?:
            task = session.uploadTask(with: sent, fromFile: url)
        case nil where options.downloadFile != nil:
            task = session.downloadTask(with: sent)
        case nil, .stream?:
            task = session.dataTask(with: sent)
        }
        let exchange = URLSessionExchange(task: task, request: request, limit: maximumResponseSize,
                                          options: options, completion: completion)
        delegate.register(exchange, for: task.taskIdentifier)
        if let overallDeadline {
            let identifier = task.taskIdentifier
            let timeout = TransportError.timedOut(.overall, after: overallDeadline, endpoint: TransportError.endpoint(of: request.url))
            DispatchQueue.global().asyncAfter(deadline: .now() + overallDeadline.timeInterval) { [weak delegate] in
                delegate?.expire(identifier, with: timeout)
            }
        }
        task.resume()
        return URLSessionCancellable(exchange: exchange, identifier: task.taskIdentifier, delegate: delegate)
    }

    /// `request` as URLSession is handed it: on Linux its timeout rounded up to whole seconds, as
    /// FoundationNetworking truncates it (a 0.5 s timeout would be 0 and fail at once, a 1.5 s
    /// one 1 s), so that it never fires before the asked time; the exchange keeps the asked
    /// one.
    private static func withWholeSecondTimeout(_ request: URLRequest) -> URLRequest {
        var sent = request
        #if canImport(FoundationNetworking)
        if sent.timeoutInterval > 0, sent.timeoutInterval < 1e9 {
            sent.timeoutInterval = sent.timeoutInterval.rounded(.up)
        }
        #endif
        return sent
    }

    /// Stages a streamed body in a temporary file on a background queue, then sends the file.
    private func sendStaged(_ request: URLRequest, makeStream: @escaping @Sendable () -> InputStream?, options: TransportOptions,
                            completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        let handle = DeferredCancellable()
        DispatchQueue.global().async {
            guard !handle.isCancelled else { return }
            let file: URL
            do {
                file = try StagedUpload.write(makeStream)
            } catch {
                if !handle.isCancelled { completion(.failure(.underlying(error, nil))) }
                return
            }
            let remove: @Sendable () -> Void = { try? FileManager.default.removeItem(at: file) }
            // Cancelled while staging: start no task (FoundationNetworking can crash on a task
            // cancelled at once while its session is being invalidated).
            guard !handle.isCancelled else { return remove() }
            var staged = options
            staged.upload = .file(file)
            let started = self.send(request, options: staged) { result in
                remove()
                completion(result)
            }
            handle.started(started, cleanup: remove)
        }
        return handle
    }
}

/// The cancel handle `URLSessionTransport.send` returns.
final class URLSessionCancellable: Cancellable {
    private let exchange: URLSessionExchange
    private let identifier: Int
    private weak let delegate: URLSessionTransportDelegate?

    init(exchange: URLSessionExchange, identifier: Int, delegate: URLSessionTransportDelegate) {
        self.exchange = exchange
        self.identifier = identifier
        self.delegate = delegate
    }

    var isCancelled: Bool { exchange.isCancelled }

    func cancel() {
        exchange.markCancelled()
        delegate?.remove(identifier)
        exchange.task.cancel()
        exchange.closeFile()
    }
}
