import Foundation
import HTTPWire
import EventLoopIO
import Locking

/// One request on an `HTTPClient`, from waiting for a connection to the last redirect, driven on
/// one event loop at a time: no thread waits for it, and nothing of it is touched on any other
/// thread. It starts on the loop the caller's thread picked (where an idle connection to its host
/// waits, if any) and runs on the loop of each connection it gets: a connection never changes
/// loops, so the request goes to it, once per hop at most, while it holds no socket
/// (`move(to:then:)`). `machine` (an `ExchangeMachine`) makes every decision; this class
/// performs them in `run(_:)`, one exhaustive `switch`, and keeps only what the actions need:
/// the connection leased from the pool (which opens connections, not the exchange), the
/// buffers, the parser, the upload's reader, the download's writer and the timer handles.
///
/// The caller's thread only makes the exchange and hands it to its loop; `cancel()` may come
/// from any thread, and finds the loop the exchange runs on in `control`. The result is reported
/// at most once: whoever sets `control.finished` first under the lock reports (or, for
/// `cancel()`, reports nothing), and the completion runs after the lock is released.
final class SocketExchange: HTTPClientTask, ChannelHandler, @unchecked Sendable {
    // @unchecked: everything below `control` is confined to `loop`'s thread (`run` and every
    // entry from the loop check it in debug builds), and `loop` changes only on that thread, while
    // the exchange holds no socket, before the task that goes on there is handed over; `control`
    // is behind its lock.
    struct Control {
        var finished = false
        var cancelled = false
        /// The loop the exchange runs on, for `cancel()` and work coming back from the I/O queue.
        var loop: EventLoop
    }

    typealias Completion = HTTPClient.ExchangeCompletion

    let control: Lock<Control>
    /// The loop the exchange runs on now: the one it started on, then each connection's.
    private(set) var loop: EventLoop
    /// Keeps a client's own loops running while the exchange runs on one of them.
    let loops: EventLoopGroup
    let pool: ConnectionPool
    let configuration: HTTPClient.Configuration
    let completion: Completion
    let idleTimeout: Duration
    let startedAt = MonotonicTime.now
    let readChunk = 65_536
    let firstReadSize = 4_096
    /// The largest buffer a connection waiting in the pool keeps for its next request.
    static let keptBufferLimit = 16_384

    var machine: ExchangeMachine
    /// The target read by the caller's thread for the first request (nil once used).
    var firstTarget: Result<SocketRequestTarget, ExchangeFailure>?
    /// The current hop's place in the pool's queue: taken when the caller sent the request, kept
    /// for a reconnect, dropped for a redirect (whose request joins the end).
    var ticket: UInt64?
    /// The connection in use: its channel (socket, queued bytes, TLS machine for `https`),
    /// which the exchange owns while it uses it (its relay, holding the exchange, lets go of it
    /// with the connection).
    var connection: Connection? {
        didSet {
            if let oldValue, oldValue !== connection { oldValue.letGo(of: self) }
        }
    }
    /// The request's bytes the machine handed out (`.write`), queued on the channel from
    /// `outputOffset` on (through TLS for `https`).
    var output: [UInt8] = []
    var outputOffset = 0
    var parser = HTTPResponseParser(requestMethod: "GET")
    /// The last whole response parsed, until it is delivered or followed.
    var response: HTTPResponse?
    var readBuffer: [UInt8] = []
    /// The most a spare buffer shrunk by a short read is grown back to for the next read of body
    /// bytes straight into it (`directBodyBuffer`).
    var directRefillLimit = 1_048_576
    /// The current attempt's reader of the request body.
    var body: UploadBodyReader?
    /// Where the final response's body goes when not in memory: a download's file, a stream's consumer.
    var download: (any ResponseBodySink)?
    /// When bytes last moved (or the reads resumed after a slow sink): a clock reading the
    /// machine is given as `idleFor` when the idle deadline passes, and the moment the timings
    /// take for the request sent and the answer's first bytes.
    var lastActivity = MonotonicTime.now
    /// The request's moments and byte counts so far (reported with its answer).
    var timings = HTTPClientTimings()
    /// Bounds the wait for a connection (without an overall deadline).
    var connectTimer: Scheduled?
    var overallTimer: Scheduled?
    /// Where this exchange's file and stream work runs (opening and reading an upload, writing a
    /// download), so that the loop never waits on a disk or a caller's stream; made on first use.
    lazy var io = DispatchQueue(label: "HTTPClient.SocketExchange.io", target: .global())

    init(request: HTTPClientRequest, target: Result<SocketRequestTarget, ExchangeFailure>,
         configuration: HTTPClient.Configuration, pool: ConnectionPool, loop: EventLoop, loops: EventLoopGroup,
         ticket: UInt64? = nil, completion: @escaping Completion) {
        self.machine = ExchangeMachine(request: request, maximumRedirects: request.redirectLimit(configuration),
                                       hasOverallDeadline: request.deadlineMoment != nil || configuration.overallDeadline != nil)
        self.firstTarget = target
        self.ticket = ticket
        self.configuration = configuration
        self.pool = pool
        self.loop = loop
        self.control = Lock(Control(loop: loop))
        self.loops = loops
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
        timings.moments.queued = startedAt
        armOverallTimer()
        run(machine.begin(readTarget(), deadlinePassed: deadlinePassed))
    }

    /// Whether the overall deadline (the request's, else the client's) has passed already.
    var deadlinePassed: Bool {
        machine.request.overallDeadline(configuration, from: startedAt).map { $0 <= .now } ?? false
    }

    /// Arms the overall deadline on the current loop, when the client sets one.
    private func armOverallTimer() {
        guard let deadline = machine.request.overallDeadline(configuration, from: startedAt) else { return }
        overallTimer = loop.schedule(at: deadline) { [self] in
            overallTimer = nil
            run(machine.overallTimerFired())
        }
    }

    /// Goes on on `other` (the loop of the connection leased), from the current loop, while the
    /// exchange holds no socket: its timers here are cancelled and the overall deadline armed
    /// again there, where `then` runs next. False, with nothing moved, when `cancel()` came first
    /// (its teardown runs here). Called only where nothing below on the stack uses the exchange
    /// afterwards (a task's own start, a lease's arrival).
    func move(to other: EventLoop, then: @escaping @Sendable () -> Void) -> Bool {
        loop.assertInLoop()
        let here = loop
        let deadline = overallTimer != nil
        cancelTimer(&connectTimer)
        cancelTimer(&overallTimer)
        // Written before the task is handed over (it runs on `other` and reads it); put back
        // when the move does not happen.
        loop = other
        let moved = control.withLock { control -> Bool in
            guard !control.finished else { return false }
            control.loop = other
            // Handed over under the lock: a `cancel()` after it reaches `other` after it.
            other.execute { [self] in
                if deadline { armOverallTimer() }
                then()
            }
            return true
        }
        if !moved { loop = here }
        return moved
    }

    /// Tells the machine of a `cancel()` whose teardown has not reached the loop yet, before an
    /// event that came from elsewhere (a lease, the I/O queue's work): the machine hears the
    /// cancel first and decides what the late event becomes, and the teardown task then finds the
    /// exchange done. The lock's flags are never handed to the machine.
    func applyPendingCancel() {
        guard isCancelled else { return }
        // A machine already done (the teardown or an end came first) takes it as nothing.
        run(machine.cancel())
    }

    /// Runs `work` on the loop the exchange runs on when it arrives there, from any thread (work
    /// coming back from the I/O queue after a move follows the exchange).
    func onItsLoop(_ work: @escaping @Sendable () -> Void) {
        let target = control.withLock { $0.loop }
        target.execute { [self] in
            guard control.withLock({ $0.loop }) === target else { return onItsLoop(work) }
            work()
        }
    }

    /// The current request's target: the one the caller's thread read for the first request,
    /// read here for a redirect's.
    private func readTarget() -> Result<SocketRequestTarget, ExchangeFailure> {
        let read = firstTarget ?? SocketRequestTarget.read(machine.request.url, as: configuration)
        firstTarget = nil
        if case .success(let target) = read, let unavailable = Self.tlsUnavailable(for: target) {
            return .failure(.tlsUnavailable(unavailable))
        }
        return read
    }

    /// Ends the exchange from any thread; nothing is reported afterwards.
    func cancel() {
        let claimed = control.withLock { control -> EventLoop? in
            guard !control.finished else { return nil }
            control.finished = true
            control.cancelled = true
            return control.loop
        }
        claimed?.execute { [self] in run(machine.cancel()) }
    }

    // MARK: - Performing the machine's actions

    /// Performs `action`: the one place the exchange acts on the machine's decisions.
    func run(_ action: ExchangeMachine.Action) {
        loop.assertInLoop()
        switch action {
        case .none:
            break
        case .acquire(let key, let armWaitTimer):
            acquire(key, armWaitTimer: armWaitTimer, freshOnly: false)
        case .returnLease:
            returnLease()
        case .reconnect(let armWaitTimer):
            // The attempt's body reader goes too; the next attempt opens its own.
            closeBody()
            releaseClosed()
            if let key = machine.target?.key { acquire(key, armWaitTimer: armWaitTimer, freshOnly: true) }
        case .send(let start):
            useConnection()
            startBody(start)
        case .discardReader:
            closeBody()
        case .sendHead:
            sendHead()
        case .write(let framed):
            output = framed
            outputOffset = 0
        case .outputWritten(let progress, let next):
            // The last write's moment, read when it moved bytes (`touch()`): no clock read of its own.
            if next == .awaitAnswer { timings.moments.sent = lastActivity }
            if let progress { reportUploadProgress(progress) }
            perform(next)
        case .readAfterFailedWrite:
            connection?.channel.setReading(true)
            socketReadable()
        case .rearmIdleTimer:
            armIdleTimer()
        case .bodyBytes(let destination):
            moveBody(destination)
        case .pauseReading:
            pauseReading()
        case .resumeReading:
            resumeReading()
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
    /// queue, its timers (the overall one stays; the idle one is the connection's channel's) and
    /// the body's reader.
    private func stopHop(leaveQueue: Bool) {
        if leaveQueue, let key = machine.target?.key { pool.cancelWaiting(key, id: ObjectIdentifier(self)) }
        cancelTimer(&connectTimer)
        connection?.channel.setDeadline(nil)
        closeBody()
    }

    /// Lets go of the connection as `disposal` says (pooled only when still `reusable`).
    private func dispose(_ disposal: ExchangeMachine.Disposal, reusable: Bool) {
        switch disposal {
        case .none:
            closeConnection()
        case .pool:
            // Still registered here: parked on this loop, only its handler changes.
            rememberTLSSession()
            guard let connection else { return }
            self.connection = nil
            keepBuffers(on: connection)
            pool.release(connection, reusable: reusable)
        case .close:
            rememberTLSSession()
            releaseClosed()
        }
    }

    /// Leaves the read buffer and the head's buffer with a connection going back to the pool,
    /// for its next request, unless a large body grew either past `keptBufferLimit`: an idle
    /// connection holds at most that much of each.
    private func keepBuffers(on connection: Connection) {
        if readBuffer.count <= Self.keptBufferLimit {
            swap(&readBuffer, &connection.readBuffer)
            readBuffer = []
        }
        if output.capacity <= Self.keptBufferLimit {
            swap(&output, &connection.outputBuffer)
            output = []
        }
    }

    /// The output buffer, taken out (so that the next head is written into its storage, which
    /// nothing else then holds unless the channel still queues its bytes).
    func takeOutput() -> [UInt8] {
        defer { output = [] }
        return output
    }

    /// Gives the connection in use back to be closed (its slot goes to the waiters, if any),
    /// after what is left of its queued bytes.
    private func releaseClosed() {
        guard let connection else { return }
        self.connection = nil
        pool.release(connection, reusable: false)
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
            ticket = nil
            parser = HTTPResponseParser(requestMethod: machine.method)
            // The next hop starts in a task of its own: it may go to another loop (an idle
            // connection waiting there), and the read that got here goes on using the exchange.
            loop.execute { [self] in run(machine.begin(readTarget(), deadlinePassed: deadlinePassed)) }
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

    /// Stops watching and closes the connection in use, if any (not the pool's business: a slot
    /// held stays held).
    func closeConnection() {
        guard let connection else { return }
        self.connection = nil
        connection.close()
    }

    /// The connection's idle timer (the channel's, given by `armIdleTimer()`) fired: the
    /// machine decides from how long nothing moved whether the wait is over. (While the socket
    /// is left unread for a slow file or consumer the channel has no deadline.)
    func channelDeadlinePassed() {
        loop.assertInLoop()
        run(machine.idleTimerFired(idleFor: MonotonicTime.now - lastActivity, idleTimeout: idleTimeout))
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
