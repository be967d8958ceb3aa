import Foundation
import HTTPWire
import EventLoopIO
import Locking

/// One request on an `HTTPClient`, from waiting for a connection to the last redirect, driven
/// by one event loop: no thread waits for it. Its decisions are values taking events and
/// returning actions: `machine`'s (which phase it is in, whether to retry, reuse, redirect,
/// deliver or fail), `attempts`' (the lookup and each address within the connect timeout),
/// `bodyUpload`'s (the request body) and `fileDownload`'s (the download file); this class
/// performs them and keeps the socket, the parser, the buffers and the files.
///
/// Everything but `control` is touched only on `loop`'s thread. A request that waits in the pool
/// from the caller's thread holds nothing on its loop yet (unless an overall deadline's timer
/// runs there), so it moves to the loop of the connection it receives (`adopt`), and the
/// connection stays where it is registered. The result is reported at most
/// once: whoever sets `control.finished` first under the lock reports (or, for `cancel()`,
/// reports nothing), and the completion runs after the lock is released. The exchange holds a
/// connection slot of its host from the pool's lease until `giveBack`, which pools the socket
/// when the exchange read a whole response on it and closes it otherwise.
final class SocketExchange: HTTPClientTask, EventLoopHandler, @unchecked Sendable {
    // @unchecked: the mutable state below `control` is confined to `loop`'s thread.
    struct Control {
        var finished = false
        var cancelled = false
    }

    let control = Lock(Control())
    /// The loop chosen by the client, or the home loop of the pooled connection `start` took
    /// (set on the caller's thread before the exchange is shared), or the loop that handed a
    /// waiting exchange its connection (set by `adopt` under `control`'s lock, which `cancel()`
    /// reads it under).
    var loop: EventLoop
    let pool: ConnectionPool
    let configuration: HTTPClient.Configuration
    let completion: @Sendable (Result<HTTPClientResponse, HTTPClientFailure>) -> Void
    let idleTimeout: Duration
    let startedAt = ContinuousClock.now
    let readChunk = 65_536
    let firstReadSize = 4_096

    var request: HTTPClientRequest
    /// `request`'s method, upper-cased (GET when it has none).
    var method: String
    var upload: HTTPClientRequest.Body?
    var machine: ExchangeStateMachine
    var phase: ExchangeStateMachine.Phase { machine.phase }
    var target: SocketRequestTarget?
    var waitingID: UInt64?
    var socket: TCPSocket?
    var tookOver = false
    /// The connect under way (a new value per connect).
    var attempts = ConnectAttempts()
    var output: [UInt8] = []
    var outputOffset = 0
    /// The current attempt's reader of the request body.
    var body: UploadBodyReader?
    /// How the request body goes out, attempt after attempt.
    var bodyUpload = RequestBodyUpload()
    var parser = HTTPResponseParser(requestMethod: "GET")
    var lastActivity = ContinuousClock.now
    var connectTimer: Scheduled?
    var idleTimer: Scheduled?
    var overallTimer: Scheduled?
    var download: DownloadFileWriter?
    /// When the download file is made, and what its failure turns into.
    var fileDownload = DownloadToFile()
    /// Where this exchange's file and stream work runs (opening and reading an upload, writing a
    /// download), so that the loop never waits on a disk or a caller's stream; made on first use.
    lazy var io = DispatchQueue(label: "HTTPClient.SocketExchange.io", target: .global())
    var readBuffer: [UInt8] = []

    init(request: HTTPClientRequest, configuration: HTTPClient.Configuration,
         pool: ConnectionPool, loop: EventLoop,
         completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientFailure>) -> Void) {
        self.request = request
        self.method = request.normalizedMethod
        self.upload = request.body
        self.configuration = configuration
        self.pool = pool
        self.loop = loop
        self.completion = completion
        self.idleTimeout = request.idleTimeout ?? configuration.idleTimeout
        self.machine = ExchangeStateMachine(idempotent: SocketRequestEncoding.isIdempotent(method),
                                            maximumRedirects: configuration.maximumRedirects,
                                            downloadsToFile: request.downloadFile != nil)
    }

    var isCancelled: Bool { control.withLock { $0.cancelled } }

    /// What `start()` did on the caller's thread before handing the exchange to its loop.
    enum EarlyStart {
        /// Nothing: no connection or slot is free (the request waits in the pool), or the URL has no target.
        case none
        /// Holds a slot (fresh) or a pooled connection (its home loop is now the exchange's).
        case leased(ConnectionLease)
        /// Wrote the request (or its start) on a pooled connection, taken from its home loop.
        case sent(ParkedConnection)
    }

    /// Starts the exchange. The caller's thread asks the pool first; a request that has to wait
    /// for a connection is queued in the pool from here, so the loop first hears of it when a
    /// connection is handed over. A pooled connection brings its home loop (where it is
    /// registered), which the exchange then runs on.
    ///
    /// A request without a body that finds an idle pooled connection, with no other connection
    /// to its host in use, is written from the caller's thread (the exchange is not shared yet,
    /// so its state is still the caller's). The exchange then claims the connection's
    /// registration on its loop, so the answer wakes the loop, which arms the timers when it
    /// takes the exchange over: the caller wakes the loop only when the loop sleeps past the
    /// exchange's first deadline. With other requests in flight the loop is awake and takes
    /// requests in batches, and writing from callers' threads measured slower.
    func start() {
        switch startEarly() {
        case .none:
            guard let target else {
                // No target could be read: `begin` reports it on the loop.
                loop.execute { [self] in
                    armOverallTimer()
                    begin()
                }
                return
            }
            // Every connection to the host is in use: the request waits in the pool from this
            // thread, and the loop first hears of it when a connection is handed over.
            wait(for: target, fromCaller: true)
        case .leased(let lease):
            loop.execute { [self] in
                armOverallTimer()
                machine.waiting()
                leased(lease)
            }
        case .sent(let parked):
            // The timers must be armed by the first deadline; nothing of the exchange is touched
            // on this thread after the claim, which hands it to the loop.
            if outputOffset == output.count, pool.claim(parked, for: self) {
                loop.execute { [self] in _ = takeOver() }
            } else {
                loop.execute { [self] in _ = takeOver() }
            }
        }
    }

    /// On the caller's thread, before anyone else can see the exchange: reads the target and asks
    /// the pool for a connection without waiting. A request without a body that gets an idle
    /// connection while the host is quiet is written at once, as much as the kernel takes.
    /// Touches no loop state (registrations, timers).
    func startEarly() -> EarlyStart {
        // The target is read once here; `begin` reports a URL that cannot be read.
        guard let parsed = try? SocketRequestTarget(url: request.url) else { return .none }
        target = parsed
        guard upload == nil, let parked = pool.takeIdleWhenQuiet(parsed.key) else {
            // `leased` takes the slot on the loop (and gives it back at once if the exchange ended).
            guard let lease = pool.acquireNow(parsed.key) else { return .none }
            guard case .parked(let parked) = lease else { return .leased(.fresh) }
            loop = parked.loop
            return .leased(.reused(parked.socket))
        }
        loop = parked.loop
        // A closed one goes to `leased` on the loop, which connects in its slot.
        guard !parked.socket.isReadableOrClosed else { return .leased(.reused(parked.socket)) }
        machine.startedOnPooledConnection()
        socket = parked.socket
        prepareRequest()
        while outputOffset < output.count {
            let result = output.withUnsafeBytes { parked.socket.sendSome(UnsafeRawBufferPointer(rebasing: $0[outputOffset...])) }
            guard case .transferred(let count) = result else { break }
            outputOffset += count
        }
        // What is left (or a failed write, which recurs on the next attempt) is the loop's.
        return .sent(parked)
    }

    /// On the loop, once, for an exchange that wrote its request from the caller's thread: arms
    /// the timers and watches the socket in place of its parked watcher (for writing too, when
    /// part of the request is left). False when the exchange ended first.
    func takeOver() -> Bool {
        guard !tookOver else { return phase == .sending || phase == .receiving }
        tookOver = true
        guard !isFinished, let socket else { return false }
        armOverallTimer()
        guard outputOffset == output.count else {
            watch(socket)
            return true
        }
        // The whole request went out from the caller's thread: only the answer is left.
        _ = machine.requestWritten()
        armIdleTimer()
        loop.register(socket, readable: true, writable: false, handler: self)
        return true
    }

    /// The answer to a request written from the caller's thread arrived on the claimed connection
    /// (called by its parked watcher, on the loop).
    func claimedConnectionReadable() {
        guard !isFinished, takeOver() else { return }
        socketReadable()
    }

    func armOverallTimer() {
        guard let overall = configuration.overallDeadline else { return }
        overallTimer = loop.schedule(at: startedAt + overall) { [self] in
            overallTimer = nil
            if let action = machine.overallTimerFired() { perform(action) }
        }
    }

    /// Ends the exchange from any thread; nothing is reported afterwards.
    func cancel() {
        let loop = control.withLock { control -> EventLoop? in
            guard !control.finished else { return nil }
            control.finished = true
            control.cancelled = true
            return self.loop
        }
        guard let loop else { return }
        loop.execute { [self] in
            tearDown()
        }
    }

    var isFinished: Bool { control.withLock { $0.finished } }

    /// `deadline` passed after `after`, talking to the target's host and port (the URL's before it is read).
    func timedOut(_ deadline: HTTPClientError.Deadline, after: Duration) -> HTTPClientError {
        guard let key = target?.key else {
            return .timedOut(deadline, after: after, host: request.url.host ?? "?", port: request.url.port ?? 80)
        }
        return .timedOut(deadline, after: after, host: key.host, port: Int(key.port))
    }
}
