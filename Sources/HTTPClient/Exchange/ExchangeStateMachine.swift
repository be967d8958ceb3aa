import HTTPWire

/// The decisions of one exchange, as a value: it takes what happened (a lease, a connection,
/// bytes written or read, the end of the stream, a timer, a cancel) and returns what to do next
/// (connect, send, retry once on a fresh connection, give the connection back reusable or not,
/// follow a redirect, deliver, fail). `SocketExchange` drives it on its loop and performs the
/// actions; it keeps the socket, the parser, the buffers and the files, this keeps no I/O.
struct ExchangeStateMachine: Sendable {
    enum Phase: Equatable, Sendable {
        /// `opening`: the upload's file or stream is being opened off the loop.
        case idle, waiting, connecting, opening, sending, receiving, done
    }

    /// What the pool handed over (`ConnectionLease` without its socket).
    enum Lease: Equatable, Sendable {
        /// A free slot: the exchange connects itself.
        case fresh
        /// A kept-alive connection that waited in the pool.
        case reused
        /// A kept-alive connection passed on by the request that read a whole answer on it.
        case handedOver
    }

    /// Why the exchange fails; the driver adds the host, port and partial response.
    enum Failure: Equatable, Sendable {
        case timedOut(HTTPClientError.Deadline)
        case connectionLost(errno: Int32?)
        /// The parser refused the bytes (`HTTPClientError.init(_:)` decides what that means).
        case response(HTTPWireError)
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Gives an unused lease back to the pool: the exchange ended while it waited.
        case returnLease
        /// Opens a fresh connection (the connect timer armed) and sends on it.
        case connect
        /// Closes the leased connection, which the server closed while it was idle, and connects.
        case closeStaleAndConnect
        /// Sends the request on the leased (or just connected) connection.
        case send
        /// Reads the outcome of the connect under way (the socket became writable).
        case finishConnect
        /// Writes what is left of the request, as much as the socket takes.
        case writeMore
        /// Watches the connection for the answer only: the whole request is out.
        case awaitAnswer
        /// Reads what the kernel holds after a failed write (an early answer, such as a 413).
        case readAfterFailedWrite
        /// Closes the stale kept-alive connection and sends the request once more on a fresh one.
        case retryOnFreshConnection
        /// Arms the idle timer again: bytes moved since it was armed.
        case rearmIdleTimer
        /// Gives the connection back (pooled when `reusable`) and fails or delivers as the next action says.
        case giveBack(reusable: Bool)
        /// Sends the redirect's request (after `giveBack`).
        case followRedirect
        /// Reports the redirect refused, the `count`th, with its response (after `giveBack`).
        case refuseRedirect(count: Int)
        /// Reports the response; `decodesBody` when its body is in memory (not in a download file).
        case deliver(decodesBody: Bool)
        /// Reports the failure with whatever head arrived (after giving the connection back).
        case fail(Failure)
        /// Leaves the pool's queue, gives any connection back unpooled and stops the timers; reports nothing.
        case tearDown
    }

    /// Whether the request's method may be sent twice (a stale connection's one retry).
    private(set) var idempotent: Bool
    let maximumRedirects: Int
    /// Whether the response body goes to a file (no compression asked for, none decoded).
    let downloadsToFile: Bool

    private(set) var phase = Phase.idle
    /// Whether the connection is a kept-alive one (only those are retried).
    private(set) var reused = false
    /// Requests written in the current slot: a retry is the second.
    private(set) var attempt = 0
    private(set) var receivedAny = false
    private(set) var requestAsksToClose = false
    /// The errno of a write the peer refused; the answer already sent is read first.
    private(set) var writeErrno: Int32?
    private(set) var redirects = 0
    /// Whether the exchange holds one of its host's connection slots.
    private(set) var holdsSlot = false

    init(idempotent: Bool, maximumRedirects: Int, downloadsToFile: Bool) {
        self.idempotent = idempotent
        self.maximumRedirects = maximumRedirects
        self.downloadsToFile = downloadsToFile
    }

    /// Whether the request's head asks for a compressed body (never for a download file).
    var acceptsCompression: Bool { !downloadsToFile }

    // MARK: Waiting and connecting

    /// The exchange queued for a connection (or holds a lease the loop has not taken yet).
    mutating func waiting() {
        phase = .waiting
    }

    /// The pool's lease reached the loop (`cancelled` when `cancel()` ran meanwhile on another
    /// thread); `isClosed` polls a kept connection (not one handed over to an idempotent request:
    /// its answer was read a moment ago, and a retry covers it).
    mutating func leased(_ lease: Lease, cancelled: Bool = false, isClosed: () -> Bool) -> Action {
        guard phase == .waiting, !cancelled else { return .returnLease }
        holdsSlot = true
        attempt = 0
        switch lease {
        case .fresh:
            connecting()
            return .connect
        case .handedOver where idempotent:
            reused = true
            return .send
        case .reused, .handedOver:
            guard isClosed() else {
                reused = true
                return .send
            }
            connecting()
            return .closeStaleAndConnect
        }
    }

    /// A pooled connection was taken on the caller's thread and the request written there.
    mutating func startedOnPooledConnection() {
        holdsSlot = true
        attempt = 0
        reused = true
    }

    /// A fresh connection is being opened (after `.connect`, `.closeStaleAndConnect`, `.retryOnFreshConnection`).
    mutating func connecting() {
        reused = false
        phase = .connecting
    }

    /// The connect under way succeeded (the driver cancelled its timer).
    mutating func connected() -> Action? {
        phase == .connecting ? .send : nil
    }

    /// The socket has room to write: a connect finished, or more of the request can go.
    func writable() -> Action? {
        switch phase {
        case .connecting: .finishConnect
        case .sending: .writeMore
        default: nil
        }
    }

    // MARK: Sending

    /// The upload's file or stream is being opened before the head can be made.
    mutating func openingBody() {
        phase = .opening
    }

    /// The head is made for a new attempt; `asksToClose` when it says `Connection: close`.
    mutating func requestPrepared(asksToClose: Bool) {
        attempt += 1
        requestAsksToClose = asksToClose
        receivedAny = false
        writeErrno = nil
        phase = .sending
    }

    /// The last byte of the request went out.
    mutating func requestWritten() -> Action {
        phase = .receiving
        return .awaitAnswer
    }

    /// The peer stopped taking the request: its answer may be waiting already.
    mutating func writeFailed(errno: Int32) -> Action {
        writeErrno = errno
        phase = .receiving
        return .readAfterFailedWrite
    }

    // MARK: Receiving

    /// Bytes of the answer arrived (fed to the parser by the driver).
    mutating func bytesRead() {
        receivedAny = true
    }

    /// A read found nothing: after a failed write nothing more will come.
    mutating func readFoundNothing() -> Action? {
        writeErrno.map { lost(errno: $0) }
    }

    /// A read failed with `errno`.
    mutating func readFailed(errno: Int32) -> Action {
        lost(errno: writeErrno ?? errno)
    }

    /// The parser refused the bytes read.
    mutating func parseFailed(_ error: HTTPWireError) -> Action {
        .fail(.response(error))
    }

    /// The parser found a whole response; says whether its connection can serve another request.
    func reusable(keepAlive: Bool, status: Int, leftoverBytes: Bool) -> Bool {
        phase == .receiving && writeErrno == nil && keepAlive && status != 101 && !leftoverBytes && !requestAsksToClose
    }

    /// The peer closed the connection; `parsed` is what the parser made of it (a response
    /// delimited by the close, or why none is).
    mutating func endOfStream(_ parsed: Result<Void, HTTPWireError>, redirectIdempotent: Bool?) -> [Action] {
        switch parsed {
        case .success:
            return completed(reusable: false, redirectIdempotent: redirectIdempotent)
        case .failure(let error):
            if case .truncatedHead(0) = error, retryApplies {
                connecting()
                return [.retryOnFreshConnection]
            }
            return [.fail(writeErrno.map { .connectionLost(errno: $0) } ?? .response(error))]
        }
    }

    /// A whole response arrived. `redirectIdempotent` is nil unless it is a redirect the client
    /// follows; then it says whether the next request's method is idempotent.
    mutating func completed(reusable: Bool, redirectIdempotent: Bool?) -> [Action] {
        guard let redirectIdempotent else { return [.giveBack(reusable: reusable), .deliver(decodesBody: !downloadsToFile)] }
        guard redirects < maximumRedirects else { return [.giveBack(reusable: reusable), .refuseRedirect(count: redirects + 1)] }
        redirects += 1
        idempotent = redirectIdempotent
        return [.giveBack(reusable: reusable), .followRedirect]
    }

    /// Where the body read so far goes: a followed redirect's body is dropped, a download's goes
    /// to its file (the file then holds the final body only).
    func bodyGoesToFile(headIsFollowedRedirect: Bool) -> Bool {
        downloadsToFile && !headIsFollowedRedirect
    }

    /// A kept-alive connection the server had closed before this request: an idempotent request
    /// goes once more on a fresh connection (in the same slot).
    private var retryApplies: Bool {
        reused && attempt == 1 && !receivedAny && idempotent
    }

    private mutating func lost(errno: Int32) -> Action {
        guard retryApplies else { return .fail(.connectionLost(errno: errno)) }
        connecting()
        return .retryOnFreshConnection
    }

    // MARK: Timers and the end

    /// The idle timer fired; `idleFor` is the time since bytes last moved. (The connect timer is
    /// `ConnectAttempts`'.)
    func idleTimerFired(idleFor: Duration, idleTimeout: Duration) -> Action? {
        guard phase == .opening || phase == .sending || phase == .receiving else { return nil }
        return idleFor >= idleTimeout ? .fail(.timedOut(.idle)) : .rearmIdleTimer
    }

    /// The overall deadline passed.
    func overallTimerFired() -> Action? {
        phase == .done ? nil : .fail(.timedOut(.overall))
    }

    /// The connection went back to the pool (or was closed).
    mutating func gaveBack() {
        holdsSlot = false
        if phase != .done { phase = .idle }
    }

    /// The result was reported: nothing follows.
    mutating func ended() {
        phase = .done
    }

    /// The caller cancelled (the driver's lock decided it came before any report); nothing is
    /// reported afterwards.
    mutating func cancel() -> Action? {
        guard phase != .done else { return nil }
        phase = .done
        return .tearDown
    }
}
