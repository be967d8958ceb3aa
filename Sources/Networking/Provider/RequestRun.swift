import Foundation
import HTTPClient
import Locking
import Reactive
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request through a provider: endpoint, request mapping, plugins, stub or transport,
/// download move, validation, plugins again, delivery. Reports exactly once: the answer, or,
/// after `cancel()` (also before the request is built), `ProviderError.underlying(URLError(.cancelled), nil)`,
/// which plugins' `didReceive` see too, as in Moya.
///
/// A transport's answer and progress (with the download move and plugins' `didReceive` and
/// `process`) run on `callbackQueue` when there is one; else an answer arriving on an event
/// loop's thread moves to the provider's serial delivery queue, so no caller code runs on a
/// loop, and one arriving elsewhere (URLSession's queue, a test transport on a virtual-time
/// scheduler) is handled where it arrives. The answer to a task awaiting a run that has no
/// plugins, progress block or callback queue runs no caller code at all: it is finished on the
/// loop (`finishesWhereAnswered`). A stub's answer runs on the provider's `scheduler`
/// (so virtual time stays deterministic) and a cancellation's on the cancelling thread; when
/// there is a `callbackQueue`, their plugins' `didReceive`/`process` and completion go there.
@usableFromInline
final class RequestRun<Target: TargetType>: Cancellable, Disposable, Sendable {
    private let provider: NetworkProvider<Target>
    private let target: Target
    /// Built when the run is made, on the calling thread, as Moya's `request` builds it.
    private let endpoint: Endpoint
    private let callbackQueue: DispatchQueue?
    private let progress: ProgressBlock?
    private let reply: RequestReply
    /// The status codes the target's `validationType` accepts, read on the calling thread (the
    /// answer may be validated on an event loop's thread, where no caller code runs).
    private let validationCodes: [Int]
    private let state = Lock(RequestRunState())
    /// Set by `dispose()` (the `Single` subscription's end): an `rx.request` observer then hears
    /// nothing more, as behind `Single.create`'s sink. Read without the lock, just before each event.
    private let disposed = Atomic<Bool>(false)

    @usableFromInline
    init(
        provider: NetworkProvider<Target>, target: Target, callbackQueue: DispatchQueue?,
        progress: ProgressBlock?, reply: RequestReply
    ) {
        self.provider = provider
        self.target = target
        self.endpoint = provider.endpointClosure(target)
        self.callbackQueue = callbackQueue
        self.progress = progress
        self.reply = reply
        self.validationCodes = target.validationType.statusCodes
    }

    @usableFromInline
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `work` (caller code reacting to a transport) on `callbackQueue` when there is one,
    /// else on the provider's delivery queue when called on an event loop's thread, else here.
    private func handleTransportEvent(_ work: @escaping @Sendable () -> Void) {
        Self.handleTransportEvent(work, callbackQueue: callbackQueue, deliveryQueue: provider.deliveryQueue)
    }

    /// `handleTransportEvent(_:)` for a run with `callbackQueue` on a provider delivering on `deliveryQueue`.
    private static func handleTransportEvent(
        _ work: @escaping @Sendable () -> Void, callbackQueue: DispatchQueue?, deliveryQueue: DispatchQueue
    ) {
        if let callbackQueue {
            AnswerDelivery.async(on: callbackQueue, work)
        } else if HTTPClient.isOnLoopThread {
            AnswerDelivery.async(on: deliveryQueue, work)
        } else {
            work()
        }
    }

    /// Builds the request and sends it; the closures it hands out capture the run alone (no
    /// context to allocate).
    @usableFromInline
    func start() -> Self {
        provider.requestClosure(endpoint) { result in
            switch result {
            case .failure(let error):
                self.finish(.failure(error))
            case .success(let request):
                guard !self.isFinished else { return }
                // As Moya: the stub behaviour is asked once, and an upload is made for the network
                // only, its form before `prepare` (which sees its Content-Type), its body after `willSend`.
                let behavior = self.provider.stubClosure(self.target)
                let upload: EndpointUpload?
                do {
                    upload = behavior == .never ? try self.endpoint.upload() : nil
                } catch {
                    self.finish(.failure(error as? ProviderError ?? .underlying(error, nil)))
                    return
                }
                let request = self.withSessionHeaders(upload?.prepared(request) ?? request)
                self.send(self.prepare(request), behavior: behavior, upload: upload)
            }
        }
        return self
    }

    /// `cancel()`: disposing the subscription of `rx.request`, whose disposable the run is. Its
    /// observer hears nothing after this (plugins still see the cancellation, as in Moya).
    @usableFromInline
    func dispose() {
        disposed.store(true, ordering: .releasing)
        cancel()
    }

    /// The error a cancelled request reports, as Moya's: `URLError(.cancelled)`, with
    /// `TransportError.cancelled` underneath (the one place that kind is made).
    static var cancelledResult: Result<Response, ProviderError> {
        .failure(.underlying(TransportError.cancelled.urlError(url: nil) ?? URLError(.cancelled), nil))
    }

    @usableFromInline
    func cancel() {
        let claimed = state.withLock { state -> (work: RequestWork?, file: URL?)? in
            guard !state.finished else { return nil }
            state.cancelled = true
            state.finished = true
            defer { state.work = nil }
            return (state.work, state.downloadFile)
        }
        guard let claimed else { return }
        claimed.work?.stop()
        if let file = claimed.file { try? FileManager.default.removeItem(at: file) }
        deliver(Self.cancelledResult)
    }

    private var isFinished: Bool { state.withLock { $0.finished } }

    /// Keeps the continuation of the task awaiting `request(_:) async`, for the answer; false
    /// (the continuation resumed with `CancellationError`) when the task was cancelled first,
    /// and then the run must not start.
    func begin(awaiting continuation: UnsafeContinuation<Response, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            guard !state.awaitCancelled else { return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// The awaiting task's cancellation: it resumes with `CancellationError` unless the answer
    /// resumed it first, and the request is cancelled as `cancel()` cancels it (plugins see it).
    func cancelAwaiting() {
        let continuation = state.withLock { state -> UnsafeContinuation<Response, any Error>? in
            state.awaitCancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        // None: the run has not begun (`begin(awaiting:)` sees the flag) or has answered.
        guard let continuation else { return }
        continuation.resume(throwing: CancellationError())
        cancel()
    }

    /// `request` with the fields the transport adds to every request (`User-Agent`,
    /// `Accept-Language`, `Accept-Encoding` ...) where it sets none, for plugins to see, stubs
    /// included; no `Accept-Encoding` for a download, whose body is written as it arrives. With
    /// no plugins nobody looks before the transport, which adds them itself: the request stays
    /// as built (a plain GET's is shared, and each change copies it on Linux).
    private func withSessionHeaders(_ request: URLRequest) -> URLRequest {
        guard !provider.plugins.isEmpty else { return request }
        var headers = provider.transport.sessionHeaders(for: request)
        if endpoint.task.downloadDestination != nil, let encoding = HeaderFields.key("Accept-Encoding", in: headers) {
            headers[encoding] = nil
        }
        guard !headers.isEmpty else { return request }
        // One assignment: each mutation of a `URLRequest` copies it on Linux.
        var request = request
        request.allHTTPHeaderFields = (request.allHTTPHeaderFields ?? [:]).merging(headers) { own, _ in own }
        return request
    }

    private func prepare(_ request: URLRequest) -> URLRequest {
        guard !provider.plugins.isEmpty else { return request }
        let prepared = provider.plugins.reduce(request) { $1.prepare($0, target: target) }
        if !isFinished {
            let sent = PreparedRequest(request: prepared, sessionHeaders: provider.transport.sessionHeaders(for: prepared))
            for plugin in provider.plugins { plugin.willSend(sent, target: target) }
        }
        return prepared
    }

    private func send(_ request: URLRequest, behavior: StubBehavior, upload: EndpointUpload?) {
        // Plugins' `prepare` and `willSend` may have cancelled the request.
        if !provider.plugins.isEmpty, isFinished { return }
        let work: RequestWork
        switch behavior {
        case .never:
            work = sendThroughTransport(request, upload: upload)
        case .immediate where provider.schedulesInline:
            // What `ImmediateScheduler.schedule` does, without a closure and a disposable.
            finish(stubResult(request))
            return
        case .immediate:
            work = .disposable(provider.scheduler.schedule { self.finish(self.stubResult(request)) })
        case .delayed(let delay):
            work = .disposable(provider.scheduler.scheduleRelative(delay) { self.finish(self.stubResult(request)) })
        }
        let disposeNow = state.withLock { state -> Bool in
            if state.finished { return true }
            state.work = work
            return false
        }
        if disposeNow { work.stop() }
    }

    /// Sends through the transport: uploads streamed from the request's body stream, downloads
    /// to a temporary file then moved, progress adapted to `ProgressResponse`.
    private func sendThroughTransport(_ request: URLRequest, upload: EndpointUpload?) -> RequestWork {
        let task = endpoint.task
        var options = TransportOptions()
        do {
            options.upload = try upload?.source()
        } catch {
            finish(.failure(error as? ProviderError ?? .underlying(error, nil)))
            return .disposable(Disposables.create())
        }
        if progress != nil {
            if task.isUpload {
                options.uploadProgress = { [weak self] sent, total in
                    guard let total, total > 0 else { return }
                    self?.report(units: sent, of: total)
                }
            } else {
                // A fraction, or -1 for bytes of a body whose size is not known: then, as Moya,
                // an update of progress 0 each time.
                options.downloadProgress = { [weak self] fraction in
                    guard fraction >= 0 else {
                        self?.report(units: 0, of: -1)
                        return
                    }
                    self?.report(units: Int64((fraction * Self.downloadUnits).rounded()), of: Int64(Self.downloadUnits))
                }
            }
        }
        var complete: @Sendable (Result<Response, ProviderError>) -> Void = { result in
            // The answer waits in the run's state, so the closures that finish it capture the run
            // alone (no context to allocate).
            self.state.withLock { $0.answer = result }
            if self.finishesWhereAnswered {
                AnswerDelivery.atEndOfRound { self.finishWithAnswer() }
            } else {
                self.handleTransportEvent { self.finishWithAnswer() }
            }
        }
        if let destination = task.downloadDestination {
            let file = DownloadMover.temporaryFile()
            options.downloadFile = file
            state.withLock { $0.downloadFile = file }
            complete = { result in
                self.handleTransportEvent {
                    // Claim the end before moving the file: a `cancel()` that comes later then finds
                    // the request finished, and one that came first removed the file and reported.
                    guard self.claimFinish() else { return }
                    self.deliver(DownloadMover.finish(result, temporaryURL: file, destination: destination), onDeliveryQueue: true)
                }
            }
        }
        // Only plain exchanges are shared: a streamed body or a download file belongs to one caller.
        let shares = upload == nil && request.httpBodyStream == nil && options.downloadFile == nil && options.uploadProgress == nil
        if provider.trackInflights && shares {
            // The registry moves the answer (as `handleTransportEvent` would) before it runs the
            // completions, so the call is still listed while they run, as in Moya.
            let (callbackQueue, deliveryQueue) = (self.callbackQueue, provider.deliveryQueue)
            return .disposable(provider.inflight.send(
                request, endpoint: endpoint, transport: provider.transport, progress: options.downloadProgress,
                queue: callbackQueue,
                hop: { Self.handleTransportEvent($0, callbackQueue: callbackQueue, deliveryQueue: deliveryQueue) },
                completion: { result in self.finish(result, onDeliveryQueue: true) }))
        }
        // Held as it is: a disposable wrapped around it would cost a closure and an object a request.
        return .call(provider.transport.send(request, options: options, completion: complete))
    }

    /// Whether the transport's answer is finished where it arrives, an event loop's thread too
    /// (at the end of the loop's round, with the round's other answers): for a task awaiting it
    /// with no plugins, progress block or callback queue, nothing of the caller's runs before
    /// the task resumes (validation reads `validationCodes`), so the answer skips the hop
    /// through the delivery queue and wakes the task from the loop.
    private var finishesWhereAnswered: Bool {
        guard case .awaiting = reply else { return false }
        return callbackQueue == nil && progress == nil && provider.plugins.isEmpty
    }

    /// The units of a download's `progressObject`: transports report fractions of the body.
    private static var downloadUnits: Double { 1_000_000 }

    /// Passes progress on when it advances (Moya's sequence: no leading `0.0`, no repeats; see
    /// `handleTransportEvent`), or, while the size is not known (`total` -1), each time bytes
    /// arrive at progress 0, unless the request already ended (or was cancelled before the
    /// update's turn came).
    private func report(units completed: Int64, of total: Int64) {
        guard let progress else { return }
        let update = ProgressResponse(units: completed, of: total)
        let proceed = state.withLock { state -> Bool in
            let known = total > 0
            guard !state.finished, known ? update.progress > state.lastProgress : state.lastProgress == 0 else { return false }
            state.lastProgress = update.progress
            state.lastUnits = (completed, total)
            return true
        }
        guard proceed else { return }
        handleTransportEvent {
            guard !self.isCancelled else { return }
            progress(update)
        }
    }

    /// The endpoint's sample response to `request`; a `.networkResponse` has no `HTTPURLResponse`,
    /// as in Moya (whose logger then says "Received empty network response").
    private func stubResult(_ request: URLRequest) -> Result<Response, ProviderError> {
        switch endpoint.sampleResponseClosure() {
        case .networkResponse(let statusCode, let data):
            return .success(Response(statusCode: statusCode, data: data, request: request, response: nil))
        case .response(let response, let data):
            return .success(Response(statusCode: response.statusCode, data: data, request: request, response: response))
        case .networkError(let error):
            return .failure(.underlying(error, nil))
        }
    }

    /// Finishes with the transport's answer left in the state by `sendThroughTransport`.
    private func finishWithAnswer() {
        let answer = state.withLock { state in
            defer { state.answer = nil }
            return state.answer
        }
        if let answer { finish(answer, onDeliveryQueue: true) }
    }

    private func finish(_ result: Result<Response, ProviderError>, onDeliveryQueue: Bool = false) {
        guard claimFinish() else { return }
        deliver(result, onDeliveryQueue: onDeliveryQueue)
    }

    /// Marks the request finished; false when it already was (answered or cancelled).
    private func claimFinish() -> Bool {
        state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.finished = true
            state.work = nil
            return true
        }
    }

    /// Validation, plugins, the last progress update and the completion. Called through
    /// `handleTransportEvent` (`onDeliveryQueue`) everything runs here; otherwise (a stub's
    /// answer, a cancellation, a request that could not be built) all of it moves to
    /// `callbackQueue` when set, so plugins' `didReceive` and `process` run where the completion
    /// runs, just before it, as Moya runs a stub's. Plugins are called only when there are some,
    /// and the last `ProgressResponse` is built only for a progress block.
    private func deliver(_ result: Result<Response, ProviderError>, onDeliveryQueue: Bool = false) {
        if !onDeliveryQueue, let callbackQueue {
            callbackQueue.async { self.deliver(result, onDeliveryQueue: true) }
            return
        }
        let processed = processed(Self.validate(result, codes: validationCodes))
        let progress = self.progress
        let last = progress.map { _ in
            let (fraction, units) = state.withLock { ($0.lastProgress, $0.lastUnits) }
            let response = try? processed.get()
            return units.map { ProgressResponse(units: $0.completed, of: $0.total, response: response) }
                ?? ProgressResponse(progress: fraction, response: response)
        }
        report(processed, after: progress, last)
    }

    /// Plugins' `didReceive` and `didMeasure`, then `result` through their `process`.
    private func processed(_ result: Result<Response, ProviderError>) -> Result<Response, ProviderError> {
        guard !provider.plugins.isEmpty else { return result }
        for plugin in provider.plugins { plugin.didReceive(result, target: target) }
        let measured = switch result {
        case .success(let response): response.timings
        case .failure(let error): error.response?.timings
        }
        if let measured {
            for plugin in provider.plugins { plugin.didMeasure(measured, target: target) }
        }
        return provider.plugins.reduce(result) { $1.process($0, target: target) }
    }

    /// The last progress update, when there is a progress block, then the completion, or the
    /// observer's events unless the subscription was disposed before each.
    private func report(_ result: Result<Response, ProviderError>, after progress: ProgressBlock?, _ last: ProgressResponse?) {
        if let progress, let last { progress(last) }
        switch reply {
        case .completion(let completion):
            completion(result)
        case .observer(let observer):
            switch result {
            case .success(let response):
                guard !disposed.load(ordering: .acquiring) else { return }
                observer.on(.next(response))
                guard !disposed.load(ordering: .acquiring) else { return }
                observer.on(.completed)
            case .failure(let error):
                guard !disposed.load(ordering: .acquiring) else { return }
                observer.on(.error(error))
            }
        case .awaiting:
            let continuation = state.withLock { state in
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(with: result.mapError { $0 })
        }
    }

    static func validate(_ result: Result<Response, ProviderError>, codes: [Int]) -> Result<Response, ProviderError> {
        guard case .success(let response) = result, !codes.isEmpty, !codes.contains(response.statusCode) else {
            return result
        }
        return .failure(.statusCode(response))
    }
}

/// A request's mutable state. It lives outside the generic `RequestRun`, so `Lock<RequestRunState>`
/// is one concrete type: a type nested in the generic class made every lock look its metadata up
/// in the runtime's generic cache.
private struct RequestRunState {
    var work: RequestWork?
    var finished = false
    var cancelled = false
    var lastProgress = 0.0
    /// The units of the last update passed on (`ProgressResponse.progressObject`).
    var lastUnits: (completed: Int64, total: Int64)?
    var downloadFile: URL?
    /// The transport's answer on its way to the delivery queue.
    var answer: Result<Response, ProviderError>?
    /// The task awaiting `request(_:) async`, until its answer or its cancellation resumes it.
    var continuation: UnsafeContinuation<Response, any Error>?
    /// Set by the awaiting task's cancellation.
    var awaitCancelled = false
}

/// What a request's `cancel()` stops: a scheduled stub or a shared call (a disposable), or the
/// transport's call itself.
private enum RequestWork: Sendable {
    case disposable(any Disposable)
    case call(any Cancellable)

    func stop() {
        switch self {
        case .disposable(let disposable): disposable.dispose()
        case .call(let call): call.cancel()
        }
    }
}
