import Foundation
import HTTPWire
import EventLoopIO
import Locking

/// One request on an `HTTPClient`, from waiting for a connection to the last redirect, driven on
/// one event loop, the one it started on: no thread waits for it, and nothing of it is touched on
/// any other thread. `machine` (an `ExchangeMachine`) makes every decision; this class performs
/// them in `run(_:)`, one exhaustive `switch`, and keeps only what the actions need: the sockets
/// (one per connect attempt, then the connection), the buffers, the parser, the upload's reader,
/// the download's writer and the timer handles.
///
/// The caller's thread only makes the exchange and hands it to its loop; `cancel()` may come
/// from any thread. The result is reported at most once: whoever sets `control.finished` first
/// under the lock reports (or, for `cancel()`, reports nothing), and the completion runs after
/// the lock is released.
final class SocketExchange: HTTPClientTask, EventLoopHandler, @unchecked Sendable {
    // @unchecked: everything below `control` is confined to `loop`'s thread (`run` and every
    // entry from the loop check it in debug builds); `control` is behind its lock.
    struct Control {
        var finished = false
        var cancelled = false
    }

    typealias Completion = HTTPClient.ExchangeCompletion

    let control = Lock(Control())
    let loop: EventLoop
    /// Keeps a client's own loops running while the exchange runs on one of them.
    let loops: EventLoopGroup
    let pool: ConnectionPool
    let resolver: HostResolver
    let configuration: HTTPClient.Configuration
    let completion: Completion
    let idleTimeout: Duration
    let startedAt = ContinuousClock.now
    let readChunk = 65_536
    let firstReadSize = 4_096

    var machine: ExchangeMachine
    /// The target read by the caller's thread for the first request (nil once used).
    var firstTarget: Result<SocketRequestTarget, ExchangeFailure>?
    /// The pool ticket taken when the caller sent the request (nil once used).
    var ticket: UInt64?
    /// The connection in use: its socket, and its TLS machine for `https`.
    var connection: Connection?
    /// Ciphertext for the socket that it has not taken yet (TLS records: the handshake's, the
    /// request's, alerts); plain `http` writes `output` directly.
    var wire: [UInt8] = []
    var wireOffset = 0
    /// The socket is left unread while a download's file catches up.
    var readingPaused = false
    /// The sockets of the connect attempts under way, by attempt index.
    var attemptSockets: [Int: TCPSocket] = [:]
    var output: [UInt8] = []
    var outputOffset = 0
    var parser = HTTPResponseParser(requestMethod: "GET")
    /// The last whole response parsed, until it is delivered or followed.
    var response: HTTPResponse?
    var readBuffer: [UInt8] = []
    /// The current attempt's reader of the request body.
    var body: UploadBodyReader?
    var download: DownloadFileWriter?
    /// The error of the upload's file or stream, when it failed.
    var uploadError: (any Error)?
    var lastActivity = ContinuousClock.now
    var connectTimer: Scheduled?
    var staggerTimer: Scheduled?
    var idleTimer: Scheduled?
    var overallTimer: Scheduled?
    /// Where this exchange's file and stream work runs (opening and reading an upload, writing a
    /// download), so that the loop never waits on a disk or a caller's stream; made on first use.
    lazy var io = DispatchQueue(label: "HTTPClient.SocketExchange.io", target: .global())

    init(request: HTTPClientRequest, target: Result<SocketRequestTarget, ExchangeFailure>,
         configuration: HTTPClient.Configuration, pool: ConnectionPool, loop: EventLoop, loops: EventLoopGroup,
         resolver: HostResolver = .system, ticket: UInt64? = nil, completion: @escaping Completion) {
        self.machine = ExchangeMachine(request: request, maximumRedirects: configuration.maximumRedirects,
                                       hasOverallDeadline: configuration.overallDeadline != nil)
        self.firstTarget = target
        self.ticket = ticket
        self.configuration = configuration
        self.pool = pool
        self.loop = loop
        self.loops = loops
        self.resolver = resolver
        self.completion = completion
        self.idleTimeout = request.idleTimeout ?? configuration.idleTimeout
    }

    var isCancelled: Bool { control.withLock { $0.cancelled } }

    var isFinished: Bool { control.withLock { $0.finished } }

    /// Hands the exchange to its loop (from the caller's thread) and returns.
    func start() {
        loop.execute { [self] in begin() }
    }

    /// On the loop: arms the overall deadline and asks the pool for a connection.
    private func begin() {
        loop.assertInLoop()
        guard !isFinished else { return }
        if let overall = configuration.overallDeadline {
            overallTimer = loop.schedule(at: startedAt + overall) { [self] in
                overallTimer = nil
                run(machine.overallTimerFired())
            }
        }
        run(machine.begin(readTarget()))
    }

    /// The current request's target: the one the caller's thread read for the first request,
    /// read here for a redirect's.
    private func readTarget() -> Result<SocketRequestTarget, ExchangeFailure> {
        let read = firstTarget ?? SocketRequestTarget.read(machine.request.url)
        firstTarget = nil
        if case .success(let target) = read, let unavailable = Self.tlsUnavailable(for: target) {
            return .failure(.tlsUnavailable(unavailable))
        }
        return read
    }

    /// Ends the exchange from any thread; nothing is reported afterwards.
    func cancel() {
        let claimed = control.withLock { control -> Bool in
            guard !control.finished else { return false }
            control.finished = true
            control.cancelled = true
            return true
        }
        guard claimed else { return }
        loop.execute { [self] in run(machine.cancel()) }
    }

    // MARK: - Performing the machine's actions

    /// Performs `action`: the one place the exchange acts on the machine's decisions.
    func run(_ action: ExchangeMachine.Action) {
        loop.assertInLoop()
        switch action {
        case .none:
            break
        case .acquire(let key, let armWaitTimer):
            acquire(key, armWaitTimer: armWaitTimer)
        case .returnLease:
            returnLease()
        case .connect(let closingCurrent):
            // A retry gives up the attempt's body reader; the next attempt opens its own.
            closeBody()
            if closingCurrent { closeConnection() }
            beginConnect()
        case .connectStep(let step):
            perform(step)
        case .secure(let attempt):
            secure(attempt: attempt)
        case .send(let attempt, let start):
            useConnection(attempt: attempt)
            startBody(start)
        case .discardReader:
            closeBody()
        case .sendHead:
            sendHead()
        case .write(let framed):
            output = framed
            outputOffset = 0
        case .outputWritten(let progress, let next):
            if let progress { reportUploadProgress(progress) }
            perform(next)
        case .readAfterFailedWrite:
            if let socket { loop.setInterest(socket, readable: true, writable: false) }
            socketReadable()
        case .rearmIdleTimer:
            armIdleTimer()
        case .bodyBytes(let destination):
            moveBody(destination)
        case .finish(let leaveQueue, let disposal, let outcome):
            stopHop(leaveQueue: leaveQueue)
            // Cancelled meanwhile from another thread: the connection is closed, not pooled. It
            // goes back before the answer is reported, so a request sent from the completion
            // finds it in the pool.
            dispose(disposal, reusable: !isFinished)
            end(outcome)
        }
    }

    /// Lets go of what the current hop holds besides its connection: its place in the pool's
    /// queue, its timers (the overall one stays), the connect attempts and the body's reader.
    private func stopHop(leaveQueue: Bool) {
        if leaveQueue, let key = machine.target?.key { pool.cancelWaiting(key, id: ObjectIdentifier(self)) }
        cancelTimer(&connectTimer)
        cancelTimer(&staggerTimer)
        cancelTimer(&idleTimer)
        closeAttempts(keeping: nil)
        closeBody()
    }

    /// Lets go of the connection as `disposal` says (pooled only when still `reusable`).
    private func dispose(_ disposal: ExchangeMachine.Disposal, reusable: Bool) {
        let key = machine.target?.key
        switch disposal {
        case .none:
            closeConnection()
        case .pool:
            // Still registered here: parked on this loop, only its handler changes.
            rememberTLSSession()
            if let key {
                pool.release(key, connection: connection, reusable: reusable, on: loop)
            } else {
                closeConnection()
            }
            connection = nil
        case .close:
            rememberTLSSession()
            if let socket { loop.deregister(socket) }
            if let key {
                pool.release(key, connection: connection, reusable: false, on: loop)
            } else {
                connection?.close()
            }
            connection = nil
        }
    }

    /// Ends the hop as `outcome` says: reports, or sends the redirect's request.
    private func end(_ outcome: ExchangeMachine.Outcome) {
        switch outcome {
        case .deliver(let decodesBody):
            guard let response else { return report(.failure(.connectionLost(errno: nil)), partial: nil) }
            self.response = nil
            deliver(response, decodesBody: decodesBody)
        case .followRedirect:
            if let head = response?.head { machine.followingRedirect(answeredBy: head) }
            response = nil
            parser = HTTPResponseParser(requestMethod: machine.method)
            run(machine.begin(readTarget()))
        case .fail(let failure):
            let partial = partialResponse()
            report(.failure(clientError(for: failure)), partial: partial)
        case .tearDown:
            cancelTimer(&overallTimer)
            download?.finish { _ in }
            download = nil
        }
    }

    func cancelTimer(_ timer: inout Scheduled?) {
        timer?.cancel()
        timer = nil
    }

    // MARK: - Waiting for a connection

    private func acquire(_ key: ConnectionPoolKey, armWaitTimer: Bool) {
        if armWaitTimer { armConnectTimer() }
        var waiter = ConnectionPool.Waiter(id: ObjectIdentifier(self), loop: loop) { [self] lease in leaseArrived(lease) }
        // The first hop queues in the order the caller sent it; a redirect's joins the end.
        waiter.ticket = ticket ?? pool.makeTicket()
        ticket = nil
        switch pool.acquire(key, waiter: waiter) {
        case .here(let parked)?:
            parked.takenHere()
            leaseArrived(.reused(parked.connection))
        case .elsewhere(let parked)?:
            parked.move(to: loop) { [self] connection in leaseArrived(.reused(connection)) }
        case .fresh?:
            leaseArrived(.fresh)
        case nil:
            break
        }
    }

    /// A lease reached the loop: the machine says whether to use it, connect, or give it back.
    private func leaseArrived(_ lease: ConnectionLease) {
        loop.assertInLoop()
        cancelTimer(&connectTimer)
        connection = lease.connection
        let kind: ExchangeMachine.Lease = switch lease {
        case .fresh: .fresh
        case .reused: .reused
        case .handedOver: .handedOver
        }
        run(machine.leased(kind, cancelled: isFinished) { lease.connection?.socket.isReadableOrClosed ?? true })
    }

    /// Gives a lease that arrived after the exchange ended back to the pool.
    private func returnLease() {
        guard let key = machine.target?.key else {
            closeConnection()
            return
        }
        let kept = connection
        connection = nil
        pool.release(key, connection: kept, reusable: kept != nil, on: loop)
    }

    /// Stops watching and closes the connection in use, if any (not the pool's business: a slot
    /// held stays held).
    func closeConnection() {
        guard let connection else { return }
        loop.deregister(connection.socket)
        connection.close()
        self.connection = nil
        wire.removeAll()
        wireOffset = 0
    }

    /// The connection's socket, while there is one.
    var socket: TCPSocket? { connection?.socket }

    /// `deadline` passed after `after`, talking to the target's host and port (the URL's before it is read).
    func timedOut(_ deadline: HTTPClientError.Deadline, after: Duration) -> HTTPClientError {
        guard let key = machine.target?.key else {
            return .timedOut(deadline, after: after, host: machine.request.url.host ?? "?", port: machine.request.url.port ?? 80)
        }
        return .timedOut(deadline, after: after, host: key.host, port: Int(key.port))
    }
}
