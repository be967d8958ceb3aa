import Foundation
import EventLoopIO
import HTTPWire

/// Every decision of one exchange, as a value: it takes what happened (the target read, a lease
/// or the failure of the connect the pool opened for it, the TLS handshake, the body opened and
/// read, bytes written and read, the response's head and end, a timer, a cancel) and returns the
/// one action to perform next. Connecting is the pool's (`ConnectionOpener`), not the
/// exchange's. The sending phase carries its sub-machine (`RequestBodyUpload`); `DownloadToFile`
/// spans the redirects, each decided once, when its head arrives. `SocketExchange` drives it on its loop
/// in one exhaustive `switch` (`run(_:)`), keeping only sockets, buffers, files and timer handles.
///
/// Every event switches over the phase and names each one: a pair the driver can produce (a late
/// timer, an event of a connection let go earlier in the same round: `run` re-entered, or the
/// rest of one read's TLS actions; an off-loop result after a cancel) is handled with its
/// reason; a pair it cannot is `impossible(_:)`, a `preconditionFailure` naming it, and is listed
/// in `impossiblePairs`.
struct ExchangeMachine: Sendable {
    private(set) var phase = Phase.idle
    /// The request being sent: the caller's, then each redirect's.
    private(set) var request: HTTPClientRequest
    /// `request`'s method, upper-cased (GET when it has none).
    private(set) var method: String
    /// Where `request` goes, once read (nil before, and when it could not be read). A followed
    /// redirect keeps its hop's until the next is read: the driver gives that hop's slot back to it.
    private(set) var target: SocketRequestTarget?
    /// The most redirects followed; nil follows none (the redirect response is delivered).
    let maximumRedirects: Int?
    /// Whether the response body goes to a file or a streamed response's consumer (no
    /// compression asked for, none decoded, no size limit).
    let downloadsToFile: Bool
    /// Whether an overall deadline bounds the exchange (then it also bounds the wait for a connection).
    let hasOverallDeadline: Bool

    /// Whether the exchange holds a connection leased from the pool (one of its host's slots).
    private(set) var holdsSlot = false
    /// Whether the connection is a kept-alive one (only those are retried).
    private(set) var reused = false
    /// Whether the request was sent once more after its kept-alive connection turned out closed
    /// (it is, once at most).
    private(set) var retried = false
    /// Requests written on the current connection (1 once the head is made): only the first on
    /// a kept-alive connection is retried.
    private(set) var attempt = 0
    private(set) var receivedAny = false
    private(set) var requestAsksToClose = false
    /// The errno of a write the peer refused; the answer already sent is read first.
    private(set) var writeErrno: Int32?
    private(set) var redirects = 0
    /// The request a redirect head received asks for next (decided once, when the head arrives).
    private(set) var redirect: HTTPClientRequest?
    /// The URL whose redirect `request` follows, while a redirect is being followed.
    private(set) var redirectedFrom: URL?
    /// Counts the body readers, so that the late outcome of one given up is told apart.
    private(set) var generation = 0
    private(set) var download = DownloadToFile()

    init(request: HTTPClientRequest, maximumRedirects: Int?, hasOverallDeadline: Bool) {
        self.request = request
        self.method = request.normalizedMethod
        self.maximumRedirects = maximumRedirects
        self.downloadsToFile = request.downloadFile != nil || request.responseStream != nil
        self.hasOverallDeadline = hasOverallDeadline
    }

    // MARK: Starting and waiting

    /// The request's target was read (`target`), or could not be (`failure`): ask the pool.
    mutating func begin(_ read: Result<SocketRequestTarget, ExchangeFailure>) -> Action {
        switch phase {
        case .idle:
            switch read {
            case .success(let target):
                self.target = target
                phase = .waiting
                return .acquire(target.key, armWaitTimer: !hasOverallDeadline)
            case .failure(let failure):
                target = nil
                return finish(.fail(failure))
            }
        case .done:
            // A redirect's next hop, started in a task of its own, after a cancel or the overall deadline.
            return .none
        case .waiting, .securing, .sending, .receiving:
            // Begun once, and again only for a followed redirect, which leaves the exchange idle.
            impossible(.begin)
        }
    }

    /// The pool's lease reached the loop; `needsHandshake` when its connection is an `https` one
    /// not secured yet; `isClosed` polls a kept connection for a request that may not be sent
    /// twice (an idempotent one is not polled: its loop watched it while idle, and a retry covers
    /// a close since). A lease that arrives after the exchange ended (cancelled, timed out) goes
    /// back unused.
    mutating func leased(_ lease: Lease, needsHandshake: Bool = false, isClosed: () -> Bool) -> Action {
        switch (phase, lease) {
        case (.waiting, .failed(let failure)):
            // The connect the pool opened while this exchange was first in line failed: no slot is held.
            return finish(.fail(failure))
        case (.waiting, .connected):
            return use(reused: false, needsHandshake: needsHandshake, polls: false, isClosed: isClosed)
        case (.waiting, .reused), (.waiting, .handedOver):
            // A request that may not be sent twice polls the kept connection first.
            return use(reused: true, needsHandshake: needsHandshake, polls: !idempotent, isClosed: isClosed)
        case (.done, .failed):
            // Cancelled or timed out while the connect's failure was on its way: nothing to give back.
            return .none
        case (.done, .connected), (.done, .reused), (.done, .handedOver):
            // Cancelled or timed out while the lease was on its way: it goes back unused.
            return .returnLease
        case (.idle, _), (.securing, _), (.sending, _), (.receiving, _):
            // The pool leases once per wait: a waiter leaves its queue as it is served, and only
            // `waiting` queues (the first hop's `begin`, a redirect's, a reconnect).
            impossible(.leased)
        }
    }

    /// Takes the leased connection (holding its slot): secures it first when it needs a
    /// handshake, else sends, unless (when it `polls`) `isClosed` says a kept one was closed meanwhile.
    private mutating func use(reused: Bool, needsHandshake: Bool, polls: Bool, isClosed: () -> Bool) -> Action {
        holdsSlot = true
        attempt = 0
        self.reused = reused
        guard !needsHandshake else {
            phase = .securing
            return .secure
        }
        guard polls, isClosed() else { return startAttempt() }
        return reconnect()
    }

    /// The connect timer fired: while waiting for a connection (it bounds the wait unless an
    /// overall deadline does), or while securing a new one.
    mutating func connectTimerFired() -> Action {
        switch phase {
        case .waiting:
            return finish(.fail(.timedOut(.connect)), leaveQueue: true)
        case .securing:
            return finish(.fail(.timedOut(.connect)))
        case .done:
            // A late fire: the driver cancels the timer as the exchange ends.
            return .none
        case .idle, .sending, .receiving:
            // Every action out of waiting and securing cancels it (`send` uses the connection,
            // `finish` stops the hop); only `acquire`/`reconnect` and `secure` arm it.
            impossible(.connectTimerFired)
        }
    }

    /// Gives the current connection up (closed: the server closed it, or it went stale) and asks
    /// the pool for a new one, ahead of the requests sent later.
    private mutating func reconnect() -> Action {
        reused = false
        retried = true
        holdsSlot = false
        phase = .waiting
        return .reconnect(armWaitTimer: !hasOverallDeadline)
    }

    // MARK: Securing

    /// The TLS handshake completed: the request goes out.
    mutating func handshakeCompleted() -> Action {
        switch phase {
        case .securing:
            return startAttempt()
        case .done:
            // The exchange ended earlier in the same read's TLS actions: nothing to send.
            return .none
        case .idle, .waiting, .sending, .receiving:
            // A TLS machine completes its handshake once, and the exchange makes one only in
            // `secure`; a pooled connection is secured already.
            impossible(.handshakeCompleted)
        }
    }

    /// TLS failed (the handshake, a certificate, the library or the context), at any step.
    mutating func tlsFailed(_ failure: ExchangeFailure) -> Action {
        switch phase {
        case .securing, .sending, .receiving:
            return finish(.fail(failure), disposal: .close)
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    // MARK: Sending

    private mutating func startAttempt() -> Action {
        var upload = RequestBodyUpload()
        generation &+= 1
        let source: RequestBodyUpload.Source = switch request.body {
        case nil: .none
        case .bytes: .inMemory
        case _?: .offLoop
        }
        let start = upload.attemptStarted(source, generation: generation)
        phase = .sending(upload)
        return .send(body: start)
    }

    /// The upload's file or stream was opened (or failed to) for `generation`; one opened for an
    /// attempt given up, or after the exchange ended, is discarded.
    mutating func bodyOpened(generation: Int, succeeded: Bool) -> Action {
        switch phase {
        case .sending(var upload) where generation == self.generation:
            let action = upload.opened(succeeded: succeeded)
            phase = .sending(upload)
            switch action {
            case .sendHead: return .sendHead
            case .failUpload: return finish(.fail(.uploadFailed))
            case .discard: return .discardReader
            }
        case .idle, .waiting, .securing, .sending, .receiving, .done:
            // Opened on the I/O queue for an attempt given up since (a reconnect, a redirect, an
            // early answer, the end): an open reader is closed, a failed one forgotten.
            return succeeded ? .discardReader : .none
        }
    }

    /// The head is being made for a new attempt: how it frames the body (`length` nil when
    /// unknown). `headMade` follows.
    mutating func headPrepared(hasBody: Bool, length: Int64?) -> SocketRequestEncoding.BodyFraming {
        attempt += 1
        requestAsksToClose = false
        receivedAny = false
        writeErrno = nil
        redirect = nil
        switch phase {
        case .sending(var upload):
            let framing = upload.headPrepared(hasBody: hasBody, length: length)
            phase = .sending(upload)
            return framing
        case .idle, .waiting, .securing, .receiving, .done:
            // The driver makes a head only as the machine says (`send`'s `.sendHead`, or
            // `.sendHead` after the body opened), both in sending.
            impossible(.headPrepared)
        }
    }

    /// The head was made; `asksToClose` when it says `Connection: close` (the connection is then
    /// not pooled after the answer).
    mutating func headMade(asksToClose: Bool) {
        switch phase {
        case .sending:
            requestAsksToClose = asksToClose
        case .idle, .waiting, .securing, .receiving, .done:
            // Follows `headPrepared` at once.
            impossible(.headMade)
        }
    }

    /// Everything in the output went out.
    mutating func outputWritten() -> Action {
        switch phase {
        case .sending(var upload):
            let (progress, next) = upload.outputWritten()
            switch next {
            case .readNow:
                phase = .sending(upload)
                return .outputWritten(progress: progress, next: .readNow(generation: generation))
            case .readOffLoop:
                phase = .sending(upload)
                return .outputWritten(progress: progress, next: .readOffLoop(generation: generation))
            case .requestWritten:
                phase = .receiving
                return .outputWritten(progress: progress, next: .awaitAnswer)
            case .wait:
                phase = .sending(upload)
                return .none
            }
        case .idle, .waiting, .securing, .receiving, .done:
            // The driver asks only while the machine says the socket may be written (`writable`).
            impossible(.outputWritten)
        }
    }

    /// A piece was read for `generation` (`bytes` nil when the read failed); empty at the end. One
    /// read for an attempt given up, or after the exchange ended, is not written.
    mutating func pieceRead(_ bytes: [UInt8]?, generation: Int) -> Action {
        switch phase {
        case .sending(var upload) where generation == self.generation:
            let action = upload.pieceRead(bytes)
            phase = .sending(upload)
            switch action {
            case .write(let framed): return .write(framed)
            case .failUpload: return finish(.fail(.uploadFailed))
            case .ignore: return .none
            }
        case .idle, .waiting, .securing, .sending, .receiving, .done:
            // Read on the I/O queue for an attempt given up since (a reconnect, a redirect, an
            // early answer, the end): not written.
            return .none
        }
    }

    /// The peer stopped taking the request (or the handshake): its answer may be waiting already.
    mutating func writeFailed(errno: Int32) -> Action {
        switch phase {
        case .securing:
            return finish(.fail(.connectionLost(errno: errno)), disposal: .close)
        case .sending:
            writeErrno = errno
            phase = .receiving
            return .readAfterFailedWrite
        case .receiving:
            // A TLS record after the request (an answer to the peer's post-handshake message):
            // the reads that follow tell how the answer ends.
            return .none
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    // MARK: Receiving

    /// Bytes of the answer arrived (fed to the parser by the driver).
    mutating func bytesRead() {
        switch phase {
        case .sending, .receiving:
            receivedAny = true
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            break
        case .securing:
            // Plaintext comes only after the handshake completed, which leaves securing at once.
            impossible(.bytesRead)
        }
    }

    /// A read found nothing: after a failed write nothing more will come.
    mutating func readFoundNothing() -> Action {
        switch phase {
        case .receiving:
            guard let writeErrno else { return .none }
            return lost(errno: writeErrno)
        case .securing, .sending:
            // Woken for nothing (the peer's bytes went in an earlier read): the next wakes it.
            return .none
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    /// A read failed with `errno`.
    mutating func readFailed(errno: Int32) -> Action {
        switch phase {
        case .securing, .sending, .receiving:
            return lost(errno: writeErrno ?? errno)
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    /// The parser refused the bytes read.
    mutating func parseFailed(_ error: HTTPWireError) -> Action {
        switch phase {
        case .sending, .receiving:
            return finish(.fail(.response(error)), disposal: .close)
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        case .securing:
            // Plaintext comes only after the handshake completed, which leaves securing at once.
            impossible(.parseFailed)
        }
    }

    /// A response head arrived: decides, once, whether it is a redirect the client follows.
    mutating func headReceived(status: Int, location: String?) {
        switch phase {
        case .sending, .receiving:
            redirect = maximumRedirects != nil && RedirectPolicy.statuses.contains(status)
                ? RedirectPolicy.nextRequest(after: request, status: status, location: location) : nil
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            break
        case .securing:
            // Plaintext comes only after the handshake completed, which leaves securing at once.
            impossible(.headReceived)
        }
    }

    /// Body bytes of the current response were parsed (none when only its head arrived);
    /// `fileFailed` when the download file met an error so far. A body in memory stays with the
    /// parser; a download's goes to its file, made with the final response's first bytes.
    mutating func bodyArrived(fileFailed: Bool) -> Action {
        switch phase {
        case .sending, .receiving:
            guard downloadsToFile else { return .none }
            guard redirect == nil else { return .bodyBytes(.drop) }
            switch download.bodyArrived(fileFailed: fileFailed) {
            case .createAndWrite?: return .bodyBytes(.writeToFile(create: true))
            case .write?: return .bodyBytes(.writeToFile(create: false))
            case .failDownload?: return finish(.fail(.downloadFailed), disposal: .close)
            case .report?, nil: return .none
            }
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        case .securing:
            // Plaintext comes only after the handshake completed, which leaves securing at once.
            impossible(.bodyArrived)
        }
    }

    /// A whole response arrived on a connection that says whether it can serve another request.
    mutating func responseComplete(keepAlive: Bool, status: Int, leftoverBytes: Bool) -> Action {
        switch phase {
        case .sending:
            // An early answer (a 413 during an upload): the connection is not reused.
            return completed(reusable: false)
        case .receiving:
            return completed(reusable: writeErrno == nil && keepAlive && status != 101 && !leftoverBytes && !requestAsksToClose)
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        case .securing:
            // Plaintext comes only after the handshake completed, which leaves securing at once.
            impossible(.responseComplete)
        }
    }

    /// The peer closed the connection; `parsed` is what the parser made of it (a response
    /// delimited by the close, or why none is).
    mutating func endOfStream(_ parsed: Result<Void, HTTPWireError>) -> Action {
        switch phase {
        case .securing:
            return finish(.fail(.connectionLost(errno: nil)), disposal: .close)
        case .sending, .receiving:
            switch parsed {
            case .success:
                return completed(reusable: false)
            case .failure(let error):
                if case .truncatedHead(0) = error, retryApplies { return reconnect() }
                return finish(.fail(writeErrno.map { .connectionLost(errno: $0) } ?? .response(error)), disposal: .close)
            }
        case .idle, .waiting, .done:
            // Its connection was let go earlier in the same round (a redirect, a reconnect, the end).
            return .none
        }
    }

    private mutating func completed(reusable: Bool) -> Action {
        let disposal: Disposal = reusable ? .pool : .close
        guard let next = redirect else { return finish(.deliver(decodesBody: !downloadsToFile), disposal: disposal) }
        guard next.body?.isReplayable ?? true else { return finish(.fail(.bodyNotReplayable), disposal: disposal) }
        guard redirects < maximumRedirects ?? 0 else { return finish(.fail(.tooManyRedirects(redirects + 1)), disposal: disposal) }
        redirects += 1
        redirectedFrom = request.url
        request = next
        method = next.normalizedMethod
        redirect = nil
        let action = Action.finish(leaveQueue: false, disposal: holdsSlot ? disposal : .none, outcome: .followRedirect)
        holdsSlot = false
        phase = .idle
        return action
    }

    /// The redirect whose head is `head` is being followed: the request's `redirectHook` adjusts
    /// the next hop's fields (before its target is read and its head written).
    mutating func followingRedirect(answeredBy head: HTTPResponseHead) {
        switch phase {
        case .idle:
            guard let hook = request.redirectHook, let from = redirectedFrom else { return }
            hook(head, from, request.url, &request.headers)
        case .waiting, .securing, .sending, .receiving, .done:
            // The driver tells it as it performs the `.followRedirect` that left the exchange idle.
            impossible(.followingRedirect)
        }
    }

    /// A kept-alive connection the server had closed before this request: an idempotent request
    /// goes once more on a new connection.
    private var retryApplies: Bool {
        reused && !retried && attempt == 1 && !receivedAny && idempotent && request.body?.isReplayable ?? true
    }

    private mutating func lost(errno: Int32) -> Action {
        guard retryApplies else { return finish(.fail(.connectionLost(errno: errno)), disposal: .close) }
        return reconnect()
    }

    // MARK: Timers and the end

    /// The idle timer fired; `idleFor` is the time since bytes last moved.
    mutating func idleTimerFired(idleFor: Duration, idleTimeout: Duration) -> Action {
        switch phase {
        case .sending, .receiving:
            guard idleFor >= idleTimeout else { return .rearmIdleTimer }
            return finish(.fail(.timedOut(.idle)), disposal: .close)
        case .waiting, .securing:
            // The last attempt's timer, left armed by a reconnect: the connect timer (or the
            // overall deadline) bounds this wait, and `send` arms the idle timer again.
            return .none
        case .done:
            // A late fire: the driver cancels the timer as the exchange ends.
            return .none
        case .idle:
            // Armed only by `send` and `rearmIdleTimer`; the `finish` that leaves a hop idle cancels it.
            impossible(.idleTimerFired)
        }
    }

    /// The download file was closed after its last write, as the exchange reports `succeeded`
    /// (a response) or not; `fileFailed` when the file met an error. Whether the report becomes
    /// `downloadFailed`.
    mutating func downloadClosed(succeeded: Bool, fileFailed: Bool) -> Bool {
        switch phase {
        case .done:
            return download.finished(succeeded: succeeded, fileFailed: fileFailed) == .failDownload
        case .idle, .waiting, .securing, .sending, .receiving:
            // The driver reports (and closes the file) only after the `finish` that ends the exchange.
            impossible(.downloadClosed)
        }
    }

    /// The overall deadline passed.
    mutating func overallTimerFired() -> Action {
        switch phase {
        case .idle, .securing, .sending, .receiving:
            return finish(.fail(.timedOut(.overall)), disposal: .close)
        case .waiting:
            return finish(.fail(.timedOut(.overall)), leaveQueue: true, disposal: .close)
        case .done:
            // A late fire: the driver cancels the timer as it reports.
            return .none
        }
    }

    /// The caller cancelled (the driver's lock decided it came before any report).
    mutating func cancel() -> Action {
        switch phase {
        case .idle, .securing, .sending, .receiving:
            return finish(.tearDown, disposal: .close)
        case .waiting:
            return finish(.tearDown, leaveQueue: true, disposal: .close)
        case .done:
            // The exchange ended (reported, failed, timed out) before the cancel's task ran.
            return .none
        }
    }

    /// Ends the exchange: the connection goes as `disposal` says when a slot is held (else nowhere).
    private mutating func finish(_ outcome: Outcome, leaveQueue: Bool = false, disposal: Disposal = .close) -> Action {
        let action = Action.finish(leaveQueue: leaveQueue, disposal: holdsSlot ? disposal : .none, outcome: outcome)
        holdsSlot = false
        phase = .done
        return action
    }
}
