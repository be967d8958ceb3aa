import HTTPWire

/// The decisions of one server connection, as a value: it takes what happened (bytes read, the
/// end of the stream, a failed read or write, the output written or blocked, the wait's timer, a
/// head counted, a route's plan) and returns what to do next (count, route, write, wait for
/// readability, writability or a timer, close, close lingering, abort, reset). `Connection` drives it on
/// its loop and performs the actions; it keeps the socket, the output and the timer, this keeps
/// the request parser and no I/O.
///
/// One wait at a time: every chain of actions ends in a wait or a close, a wait replaces the one
/// before (its readiness and its timer), and `timerFired()` is the current wait's timer.
/// `keepWaiting` leaves the current wait as it is.
struct ConnectionStateMachine {
    /// What the driver does next.
    enum Action: Equatable {
        /// Counts the head (`FeedServer.requestCount`), then calls `headCounted()`.
        case countHead(HTTPRequestHead)
        /// Asks the router (again after a wait when `afterWait`) and hands its plan to `routed(_:)`.
        case route(HTTPRequest, afterWait: Bool)
        /// Writes these bytes, as much as the socket takes now, then calls `outputFlushed()`,
        /// `outputBlocked()` or `writeFailed()`.
        case write(ArraySlice<UInt8>)
        /// Writes these bytes as `write` does, but for the last `withholding` bytes that would go
        /// on the wire (over TLS, the end of the last record): a response cut short.
        case writeCut(ArraySlice<UInt8>, withholding: Int)
        /// Waits for bytes or the end of the stream, with a timer when `timeout` is set.
        case awaitReadable(timeout: Duration?)
        /// Waits until the socket takes more of the output, with a timer.
        case awaitWritable(timeout: Duration)
        /// Waits for the timer only: the socket is not watched meanwhile.
        case awaitTimer(Duration)
        /// Goes on waiting as before (the same readiness, the same timer).
        case keepWaiting
        /// Closes the connection (over TLS, after a `close_notify`).
        case close
        /// Closes the connection without ending TLS (no `close_notify`): the client sees the
        /// connection cut.
        case abort
        /// Counts a client that closed during a watched wait (`FeedServer.abandonedImageCount`), then closes.
        case abandon
        /// Stops sending (the client reads the end of the response), then waits for the client to
        /// close, up to `timeout`, dropping what it still sends; closing at once could reset the
        /// connection before the client has read the error response.
        case lingeringClose(timeout: Duration)
        /// Closes with `SO_LINGER` 0, so the client sees a reset.
        case reset
    }

    /// What follows a counted head.
    enum AfterCount: Equatable {
        case route(HTTPRequest)
        case readBody
        case sendContinue
        case answer(HTTPWireError)
        /// The head breaks a rule of `RequestHeadRules`: answer 400 with this message.
        case refuse(String)
    }

    /// What follows the output once it is all written.
    enum AfterWrite: Equatable {
        /// `100 Continue` went out: read the body.
        case readBody
        /// A response went out: the next request, or close.
        case nextRequest(keepAlive: Bool)
        /// An error response went out.
        case linger
        /// A response cut short went out: close without ending TLS.
        case abort
        /// `remaining` body bytes of a stream are still to go.
        case stream(remaining: Int, keepAlive: Bool)
        /// `remaining` bytes of a drip are still to go.
        case drip(remaining: Int, interval: Duration, keepAlive: Bool)
    }

    enum Phase: Equatable {
        /// Before `start()`.
        case idle
        /// Waiting for (the rest of) a request; the idle timer runs.
        case reading
        /// A head was handed out to be counted.
        case counting(then: AfterCount)
        /// A request was handed to the router.
        case routing(HTTPRequest)
        /// Output was handed out to be written (and may wait for writability).
        case writing(then: AfterWrite)
        /// A route's wait: the request goes to the router again when the timer fires.
        case waiting(HTTPRequest, watchingForClose: Bool)
        /// A drip between two bytes.
        case dripping(remaining: Int, interval: Duration, keepAlive: Bool)
        /// `/hang`: until the client closes.
        case hanging
        /// After an error response: `drained` bytes dropped so far.
        case lingering(drained: Int)
        case closed
    }

    /// How long a lingering close waits for the client to close.
    static let lingerTimeout: Duration = .seconds(1)
    /// How much a lingering close drops before it closes anyway.
    static let lingerLimit = 4_194_304
    /// The block a stream writes, 64 KiB of `i % 256`; every block starts at a multiple of its size.
    static let streamBlock: [UInt8] = (0..<65_536).map { UInt8(truncatingIfNeeded: $0) }
    /// The interim answer to `Expect: 100-continue`.
    static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    /// What a drip sends each interval.
    static let dripByte: [UInt8] = [UInt8(ascii: ".")]

    let idleTimeout: Duration
    let writeTimeout: Duration
    private(set) var phase = Phase.idle
    private var parser: HTTPRequestParser
    /// Heads counted so far (the parser's `headCount` when all are).
    private var countedHeads = 0
    /// Bytes read during the current watched wait (`Disposition.wait(_:watchingForClose: true)`).
    private var keptWhileWaiting = 0

    init(configuration: FeedServer.Configuration) {
        idleTimeout = configuration.idleTimeout
        writeTimeout = configuration.writeTimeout
        parser = HTTPRequestParser(maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes)
    }

    // MARK: - Events

    /// The connection was accepted.
    mutating func start() -> Action {
        guard phase == .idle else { return .keepWaiting }
        phase = .reading
        return .awaitReadable(timeout: idleTimeout)
    }

    /// Bytes arrived.
    mutating func bytesRead<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Action {
        switch phase {
        case .reading:
            parser.feed(bytes)
            return nextRequest()
        case .waiting(_, watchingForClose: true):
            // Watched for the client's end, but what comes meanwhile is the next request,
            // pipelined (RFC 9112 §9.3.2): kept for after the answer, up to one request's limits.
            keptWhileWaiting += bytes.count
            guard keptWhileWaiting <= parser.maxHeaderBytes + parser.maxBodyBytes else { return closed(.close) }
            parser.feed(bytes)
            return .keepWaiting
        case .hanging:
            return .keepWaiting
        case .lingering(let drained):
            let total = drained + bytes.count
            guard total < Self.lingerLimit else { return closed(.close) }
            phase = .lingering(drained: total)
            return .keepWaiting
        case .idle, .counting, .routing, .writing, .waiting(_, watchingForClose: false), .dripping, .closed:
            // Nothing is read in these phases; bytes that come anyway are kept for the next request.
            parser.feed(bytes)
            return .keepWaiting
        }
    }

    /// The client closed its side (a read found the end of the stream).
    mutating func endOfStream() -> Action {
        switch phase {
        case .reading:
            do {
                try parser.finishAtEndOfStream()
                return closed(.close)
            } catch {
                return failed(error)
            }
        case .waiting(_, watchingForClose: true):
            return closed(.abandon)
        case .idle, .counting, .routing, .writing, .waiting(_, watchingForClose: false), .dripping, .hanging, .lingering, .closed:
            return closed(.close)
        }
    }

    /// A read failed (a reset, most often).
    mutating func readFailed() -> Action {
        if case .waiting(_, watchingForClose: true) = phase { return closed(.abandon) }
        return closed(.close)
    }

    /// The head handed out by `countHead` was counted.
    mutating func headCounted() -> Action {
        guard case .counting(let next) = phase else { return unexpected() }
        switch next {
        case .route(let request):
            phase = .routing(request)
            return .route(request, afterWait: false)
        case .readBody:
            phase = .reading
            return .awaitReadable(timeout: idleTimeout)
        case .sendContinue:
            phase = .writing(then: .readBody)
            return .write(Self.continueBytes[...])
        case .answer(let error):
            return answer(error)
        case .refuse(let message):
            return refuse(status: 400, message: message)
        }
    }

    /// The router's plan for the request handed out by `route`.
    mutating func routed(_ plan: Connection.Disposition) -> Action {
        guard case .routing(let request) = phase else { return unexpected() }
        switch plan {
        case .send(let bytes, let keepAlive):
            phase = .writing(then: .nextRequest(keepAlive: keepAlive))
            return .write(bytes[...])
        case .stream(let head, let bodyBytes, let keepAlive):
            phase = .writing(then: .stream(remaining: max(0, bodyBytes), keepAlive: keepAlive))
            return .write(head[...])
        case .drip(let head, let interval, let bytes, let keepAlive):
            phase = .writing(then: .drip(remaining: max(0, bytes), interval: interval, keepAlive: keepAlive))
            return .write(head[...])
        case .wait(let delay, let watchingForClose):
            phase = .waiting(request, watchingForClose: watchingForClose)
            keptWhileWaiting = 0
            return watchingForClose ? .awaitReadable(timeout: delay) : .awaitTimer(delay)
        case .hang:
            phase = .hanging
            return .awaitReadable(timeout: nil)
        case .cut(let bytes, let withholding):
            phase = .writing(then: .abort)
            return .writeCut(bytes[...], withholding: max(0, withholding))
        case .close:
            return closed(.close)
        case .reset:
            return closed(.reset)
        }
    }

    /// All the output handed out by `write` is written.
    mutating func outputFlushed() -> Action {
        guard case .writing(let next) = phase else { return unexpected() }
        switch next {
        case .readBody:
            phase = .reading
            return nextRequest()
        case .nextRequest(let keepAlive):
            return finishResponse(keepAlive: keepAlive)
        case .linger:
            phase = .lingering(drained: 0)
            return .lingeringClose(timeout: Self.lingerTimeout)
        case .abort:
            return closed(.abort)
        case .stream(let remaining, let keepAlive):
            guard remaining > 0 else { return finishResponse(keepAlive: keepAlive) }
            let size = min(Self.streamBlock.count, remaining)
            phase = .writing(then: .stream(remaining: remaining - size, keepAlive: keepAlive))
            return .write(Self.streamBlock[0..<size])
        case .drip(let remaining, let interval, let keepAlive):
            guard remaining > 0 else { return finishResponse(keepAlive: keepAlive) }
            phase = .dripping(remaining: remaining, interval: interval, keepAlive: keepAlive)
            return .awaitTimer(interval)
        }
    }

    /// Part of the output is still to go: the socket takes no more now. Each call starts the
    /// write timeout again, so it bounds the time without progress.
    mutating func outputBlocked() -> Action {
        guard case .writing = phase else { return unexpected() }
        return .awaitWritable(timeout: writeTimeout)
    }

    /// A write failed: the client went away.
    mutating func writeFailed() -> Action {
        closed(.close)
    }

    /// The current wait's timer fired.
    mutating func timerFired() -> Action {
        switch phase {
        case .reading, .writing, .lingering:
            // The idle timeout, the write timeout, the end of a lingering close.
            return closed(.close)
        case .waiting(let request, _):
            phase = .routing(request)
            return .route(request, afterWait: true)
        case .dripping(let remaining, let interval, let keepAlive):
            phase = .writing(then: .drip(remaining: remaining - 1, interval: interval, keepAlive: keepAlive))
            return .write(Self.dripByte[...])
        case .idle, .counting, .routing, .hanging, .closed:
            // No timer runs in these phases.
            return .keepWaiting
        }
    }

    // MARK: - Steps

    /// Takes the next request from the parser (pipelined ones are buffered there already), or
    /// waits for more bytes; counts each head once, as soon as it is parsed, and refuses it
    /// then when it breaks `RequestHeadRules`. Heads go on in origin form.
    private mutating func nextRequest() -> Action {
        do {
            var request = try parser.nextRequest()
            let isNewHead = parser.headCount > countedHeads
            // Checked as sent: an absolute-form target still needs its Host field.
            if isNewHead, let head = request?.head ?? parser.pendingHead, let refusal = RequestHeadRules.refusal(of: head) {
                countedHeads = parser.headCount
                phase = .counting(then: .refuse(refusal))
                return .countHead(RequestHeadRules.originForm(head))
            }
            if let head = request?.head { request?.head = RequestHeadRules.originForm(head) }
            if isNewHead {
                countedHeads = parser.headCount
                if let request {
                    phase = .counting(then: .route(request))
                    return .countHead(request.head)
                }
                if let head = parser.pendingHead {
                    // RFC 9110 section 10.1.1: an HTTP/1.0 client's expectation is ignored.
                    let expectsContinue = head.version != .http1_0 && head.headers.containsToken("100-continue", in: "Expect")
                    phase = .counting(then: expectsContinue ? .sendContinue : .readBody)
                    return .countHead(RequestHeadRules.originForm(head))
                }
            }
            if let request {
                phase = .routing(request)
                return .route(request, afterWait: false)
            }
            phase = .reading
            return .awaitReadable(timeout: idleTimeout)
        } catch {
            return failed(error)
        }
    }

    /// The parser refused the bytes: counts a head not yet counted, then answers.
    private mutating func failed(_ error: HTTPWireError) -> Action {
        if parser.headCount > countedHeads, let head = parser.pendingHead {
            countedHeads = parser.headCount
            phase = .counting(then: .answer(error))
            return .countHead(RequestHeadRules.originForm(head))
        }
        return answer(error)
    }

    /// Closes after a request cut short; answers 400, 413, 414 (a request line alone over the
    /// head's limit) or 431 to anything else, then lingers.
    private mutating func answer(_ error: HTTPWireError) -> Action {
        let status: Int
        switch error {
        case .truncatedHead, .truncatedBody, .incompleteClose:
            return closed(.close)
        case .headersTooLarge:
            status = parser.requestLineTooLong ? 414 : 431
        case .bodyTooLarge:
            status = 413
        case .malformedStartLine, .malformedHeader, .unsupportedVersion, .invalidContentLength,
             .unsupportedTransferEncoding, .malformedChunk, .invalidContentCoding:
            status = 400
        }
        return refuse(status: status, message: error.description)
    }

    /// Answers `status` with `message` and `Connection: close`, then lingers.
    private mutating func refuse(status: Int, message: String) -> Action {
        let response = Responses.json(status: status, code: "E\(status)", message: message, keepAlive: false)
        phase = .writing(then: .linger)
        return .write(response.serialized()[...])
    }

    private mutating func finishResponse(keepAlive: Bool) -> Action {
        guard keepAlive else { return closed(.close) }
        return nextRequest()
    }

    private mutating func closed(_ action: Action) -> Action {
        phase = .closed
        return action
    }

    /// An event the phase does not expect (the driver reports only what it was asked for):
    /// ends the connection rather than guess.
    private mutating func unexpected() -> Action {
        assertionFailure("event in phase \(phase)")
        return closed(.close)
    }
}
