import Foundation
import HTTPWire
import SocketIO
import Locking

/// One request on an `HTTPClient`, from waiting for a connection to the last redirect, as a
/// state machine driven by one event loop: no thread waits for it.
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
    private struct Control {
        var finished = false
        var cancelled = false
    }

    private enum Phase {
        /// `opening`: the upload's file or stream is being opened on the I/O queue.
        case idle, waiting, connecting, opening, sending, receiving, done
    }

    private let control = Lock(Control())
    /// The loop chosen by the client, or the home loop of the pooled connection `start` took
    /// (set on the caller's thread before the exchange is shared), or the loop that handed a
    /// waiting exchange its connection (set by `adopt` under `control`'s lock, which `cancel()`
    /// reads it under).
    private var loop: EventLoop
    private let pool: ConnectionPool
    private let configuration: HTTPClient.Configuration
    private let completion: @Sendable (Result<HTTPClientResponse, HTTPClientFailure>) -> Void
    private let idleTimeout: Duration
    private let startedAt = ContinuousClock.now
    private let readChunk = 65_536
    private let firstReadSize = 4_096

    private var request: HTTPClientRequest
    /// `request`'s method, upper-cased (GET when it has none).
    private var method: String
    private var upload: HTTPClientRequest.Body?
    private var redirects = 0
    private var phase = Phase.idle
    private var target: SocketRequestTarget?
    private var waitingID: UInt64?
    private var holdsSlot = false
    private var socket: TCPSocket?
    private var reused = false
    private var tookOver = false
    private var attempt = 0
    private var addresses: [SocketAddress] = []
    private var addressIndex = 0
    private var lastConnectErrno: Int32 = ECONNREFUSED
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var outputBodyBytes = 0
    private var body: UploadBodyReader?
    /// Counts the upload readers given up, so that an open or a read finishing on the I/O queue
    /// after its reader was given up (a retry, a failure) is ignored.
    private var bodyGeneration = 0
    /// Whether a read of a file or stream body is under way on the I/O queue.
    private var bodyReading = false
    private var bodyEnded = false
    private var bodySent: Int64 = 0
    private var parser = HTTPResponseParser(requestMethod: "GET")
    private var receivedAny = false
    /// Whether this attempt's request asked to close the connection (`Connection: close`).
    private var requestAsksToClose = false
    private var writeErrno: Int32?
    private var lastActivity = ContinuousClock.now
    private var connectTimer: UInt64?
    private var idleTimer: UInt64?
    private var overallTimer: UInt64?
    private var download: DownloadFileWriter?
    /// Where this exchange's file and stream work runs (opening and reading an upload, writing a
    /// download), so that the loop never waits on a disk or a caller's stream; made on first use.
    private lazy var io = DispatchQueue(label: "Networking.SocketExchange.io", target: .global())
    private var readBuffer: [UInt8] = []

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
    }

    var isCancelled: Bool { control.withLock { $0.cancelled } }

    /// What `start()` did on the caller's thread before handing the exchange to its loop.
    private enum EarlyStart {
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
                phase = .waiting
                leased(lease)
            }
        case .sent(let parked):
            // The timers must be armed by the first deadline; nothing of the exchange is touched
            // on this thread after the claim, which hands it to the loop.
            let idleDeadline = lastActivity + idleTimeout
            let deadline = configuration.overallDeadline.map { min(idleDeadline, startedAt + $0) } ?? idleDeadline
            if outputOffset == output.count, pool.claim(parked, for: self) {
                loop.execute(by: deadline) { [self] in _ = takeOver() }
            } else {
                loop.execute { [self] in _ = takeOver() }
            }
        }
    }

    /// On the caller's thread, before anyone else can see the exchange: reads the target and asks
    /// the pool for a connection without waiting. A request without a body that gets an idle
    /// connection while the host is quiet is written at once, as much as the kernel takes.
    /// Touches no loop state (registrations, timers).
    private func startEarly() -> EarlyStart {
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
        holdsSlot = true
        attempt = 0
        socket = parked.socket
        reused = true
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
    private func takeOver() -> Bool {
        guard !tookOver else { return phase == .sending || phase == .receiving }
        tookOver = true
        guard !isFinished, let socket else { return false }
        armOverallTimer()
        guard outputOffset == output.count else {
            watch(socket)
            return true
        }
        // The whole request went out from the caller's thread: only the answer is left.
        phase = .receiving
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

    private func armOverallTimer() {
        guard let overall = configuration.overallDeadline else { return }
        overallTimer = loop.schedule(at: startedAt + overall) { [self] in
            overallTimer = nil
            fail(timedOut(.overall, after: overall))
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

    private var isFinished: Bool { control.withLock { $0.finished } }

    /// `deadline` passed after `after`, talking to the target's host and port (the URL's before it is read).
    private func timedOut(_ deadline: HTTPClientError.Deadline, after: Duration) -> HTTPClientError {
        guard let key = target?.key else {
            return .timedOut(deadline, after: after, host: request.url.host ?? "?", port: request.url.port ?? 80)
        }
        return .timedOut(deadline, after: after, host: key.host, port: Int(key.port))
    }

    // MARK: - Waiting for a connection

    /// Asks the pool for a connection for `request`; its target is the one `start` read, unless a
    /// redirect cleared it.
    private func begin() {
        guard !isFinished else { return }
        let parsed: SocketRequestTarget
        do throws(HTTPClientError) {
            if let target {
                parsed = target
            } else {
                parsed = try SocketRequestTarget(url: request.url)
            }
        } catch {
            report(.failure(HTTPClientFailure(error)))
            return
        }
        target = parsed
        wait(for: parsed)
    }

    /// Queues the exchange in the pool for a connection to `target`; the lease reaches `leased`
    /// on the exchange's loop. Called on the loop, or by `start` (`fromCaller`) before the
    /// exchange is shared; then the state it sets is written before any task of the exchange
    /// reaches the loop (the overall timer's goes ahead of any lease), and nothing of the
    /// exchange is touched on the caller's thread after that.
    ///
    /// Waiting from the caller without an overall deadline, the exchange has nothing on its loop,
    /// so it is queued unbound: a connection released on another loop brings the exchange there
    /// (`adopt`) instead of moving to the exchange's loop. Handing connections across loops
    /// moved about one in eight of them at 256 requests in flight on 32 connections, and the
    /// loops' shares drifted apart; unbound waiters are also served in strict arrival order.
    private func wait(for target: SocketRequestTarget, fromCaller: Bool = false) {
        phase = .waiting
        let loop = self.loop
        let id = pool.makeWaiterID()
        waitingID = id
        // From `begin` the overall timer (if any) is armed already and the exchange stays bound.
        let unbound = fromCaller && configuration.overallDeadline == nil
        if fromCaller && !unbound {
            loop.execute { [self] in armOverallTimer() }
        }
        let key = target.key
        pool.acquire(key, id: id, on: unbound ? nil : loop) { [self, pool] lease, releasingLoop in
            guard unbound, let releasingLoop, releasingLoop !== loop else {
                loop.execute { self.leased(lease) }
                return
            }
            guard adopt(releasingLoop) else {
                // Cancelled while waiting: its teardown runs on its old loop and touches nothing
                // here, so the lease goes back without the exchange (as a task: this runs inside
                // the pool's `release`).
                releasingLoop.execute { pool.returnUnused(lease, for: key, on: releasingLoop) }
                return
            }
            releasingLoop.execute { self.leased(lease) }
        }
    }

    /// Moves a waiting exchange, which holds nothing on any loop, to `newLoop`; false when it was
    /// cancelled first (its teardown then runs on the old loop).
    private func adopt(_ newLoop: EventLoop) -> Bool {
        control.withLock { control in
            guard !control.finished else { return false }
            loop = newLoop
            return true
        }
    }

    private func leased(_ lease: ConnectionLease) {
        waitingID = nil
        guard let key = target?.key else { return }
        guard phase == .waiting, !isFinished else {
            pool.returnUnused(lease, for: key, on: loop)
            return
        }
        holdsSlot = true
        attempt = 0
        switch lease {
        case .fresh:
            connect()
        case .handedOver(let kept) where SocketRequestEncoding.isIdempotent(method):
            // Its last answer was read a moment ago, so it is not polled for a close first: if the
            // server closed it anyway, `retryOnFreshConnection` sends the request again.
            send(on: kept)
        case .reused(let kept) where !kept.isReadableOrClosed, .handedOver(let kept) where !kept.isReadableOrClosed:
            send(on: kept)
        case .reused(let stale), .handedOver(let stale):
            loop.deregister(stale)
            stale.close()
            connect()
        }
    }

    private func send(on kept: TCPSocket) {
        socket = kept
        reused = true
        sendRequest()
    }

    // MARK: - Connecting

    private func connect() {
        guard let key = target?.key else { return }
        reused = false
        phase = .connecting
        let timeout = configuration.connectTimeout
        connectTimer = loop.schedule(at: .now + timeout) { [self] in
            connectTimer = nil
            fail(timedOut(.connect, after: timeout))
        }
        do throws(SocketError) {
            addresses = try SocketAddress.resolve(host: key.host, port: key.port, numericOnly: true)
            addressIndex = 0
            tryNextAddress()
        } catch {
            // A name, not a literal: `getaddrinfo` may block, so it runs off the loop.
            let loop = self.loop
            DispatchQueue.global().async { [self] in
                let result = Result { () throws(SocketError) -> [SocketAddress] in
                    try SocketAddress.resolve(host: key.host, port: key.port)
                }
                loop.execute { self.resolved(result) }
            }
        }
    }

    private func resolved(_ result: Result<[SocketAddress], SocketError>) {
        guard phase == .connecting, !isFinished, let key = target?.key else { return }
        switch result {
        case .success(let list):
            addresses = list
            addressIndex = 0
            tryNextAddress()
        case .failure(.addressResolution(_, let code)):
            fail(.cannotFindHost(host: key.host, code: code))
        case .failure(let error):
            fail(.cannotConnect(host: key.host, port: Int(key.port), errno: error.systemErrno ?? EHOSTUNREACH))
        }
    }

    private func tryNextAddress() {
        while addressIndex < addresses.count {
            do throws(SocketError) {
                let (opened, inProgress) = try TCPSocket.startConnect(to: addresses[addressIndex])
                socket = opened
                if inProgress {
                    loop.register(opened, readable: false, writable: true, handler: self)
                } else {
                    connected()
                }
                return
            } catch {
                lastConnectErrno = error.systemErrno ?? lastConnectErrno
                addressIndex += 1
            }
        }
        guard let key = target?.key else { return }
        fail(.cannotConnect(host: key.host, port: Int(key.port), errno: lastConnectErrno))
    }

    private func connectionFinished(_ socket: TCPSocket) {
        let number = socket.connectionError()
        guard number != 0 else { return connected() }
        loop.deregister(socket)
        socket.close()
        self.socket = nil
        lastConnectErrno = number
        addressIndex += 1
        tryNextAddress()
    }

    private func connected() {
        if let connectTimer { loop.cancelTimer(connectTimer) }
        connectTimer = nil
        sendRequest()
    }

    // MARK: - Sending

    private func sendRequest() {
        guard let socket else { return }
        closeBody()
        switch upload {
        case nil:
            break
        case .bytes(let bytes):
            body = UploadBodyReader(bytes: bytes)
        case let source?:
            // A file or a caller's stream is opened on the I/O queue; the socket waits unwatched.
            phase = .opening
            loop.setInterest(socket, readable: false, writable: false)
            touch()
            armIdleTimer()
            let (loop, generation) = (self.loop, bodyGeneration)
            io.async { [self] in
                let opened = Result { try UploadBodyReader(source) }
                loop.execute { self.bodyOpened(opened, generation: generation) }
            }
            return
        }
        prepareRequest()
        watch(socket)
    }

    /// The upload's file or stream was opened (or failed to) on the I/O queue.
    private func bodyOpened(_ opened: Result<UploadBodyReader, any Error>, generation: Int) {
        guard generation == bodyGeneration, phase == .opening, !isFinished, let socket else {
            if case .success(let reader) = opened { io.async { reader.close() } }
            return
        }
        switch opened {
        case .success(let reader):
            body = reader
            prepareRequest()
            watch(socket)
        case .failure(let error):
            giveBack(reusable: false)
            report(.failure(HTTPClientFailure(.uploadFailed(underlying: error))))
        }
    }

    /// Gives the upload reader up (closing it where it is read) and ignores its pending work.
    private func closeBody() {
        bodyGeneration &+= 1
        bodyReading = false
        guard let body else { return }
        self.body = nil
        if body.isInMemory {
            body.close()
        } else {
            io.async { body.close() }
        }
    }

    /// Arms the idle timer, watches `socket` and writes what is left of the request.
    private func watch(_ socket: TCPSocket) {
        armIdleTimer()
        loop.register(socket, readable: true, writable: true, handler: self)
        writeMore()
    }

    /// Makes the request's head (framed for `body`, opened by the caller) and a parser for its
    /// answer, and counts the attempt; touches no loop state.
    private func prepareRequest() {
        guard let target else { return }
        attempt += 1
        let framing: SocketRequestEncoding.BodyFraming = body.map { $0.length.map { .length($0) } ?? .chunked } ?? .length(0)
        (output, requestAsksToClose) = SocketRequestEncoding.head(request, target: target, framing: framing,
                                                                  acceptsCompression: request.downloadFile == nil)
        outputOffset = 0
        outputBodyBytes = 0
        bodyEnded = body == nil
        bodySent = 0
        let limit = request.downloadFile == nil ? configuration.maximumResponseSize : Int.max
        parser = HTTPResponseParser(requestMethod: method, maxHeaderBytes: configuration.maximumHeaderBytes, maxBodyBytes: limit)
        receivedAny = false
        writeErrno = nil
        phase = .sending
        touch()
    }

    /// Writes until the kernel stops taking bytes or the request is out.
    private func writeMore() {
        guard phase == .sending, !bodyReading, let socket else { return }
        while true {
            if outputOffset == output.count {
                reportUploadProgress()
                guard refillOutput() else { return }
                if outputOffset == output.count {
                    phase = .receiving
                    loop.setInterest(socket, readable: true, writable: false)
                    return
                }
            }
            let result = output.withUnsafeBytes { socket.sendSome(UnsafeRawBufferPointer(rebasing: $0[outputOffset...])) }
            switch result {
            case .transferred(let count):
                outputOffset += count
                touch()
            case .wouldBlock, .endOfStream:
                return
            case .failed(let number):
                writeFailed(number)
                return
            }
        }
    }

    /// Puts the next piece of the body in `output`; false when it is not there yet (a file or
    /// stream is read on the I/O queue, which calls `writeMore` again) or the exchange ended (a
    /// body read failed).
    private func refillOutput() -> Bool {
        output.removeAll(keepingCapacity: true)
        outputOffset = 0
        outputBodyBytes = 0
        guard let body, !bodyEnded else { return true }
        guard body.isInMemory else {
            readBody(body)
            return false
        }
        return bodyRead(Result { try body.next(limit: readChunk) })
    }

    /// Reads the next piece of a file or stream body on the I/O queue; the socket is watched for
    /// an early answer meanwhile, not for room to write.
    private func readBody(_ reader: UploadBodyReader) {
        bodyReading = true
        if let socket { loop.setInterest(socket, readable: true, writable: false) }
        let (loop, generation, limit) = (self.loop, bodyGeneration, readChunk)
        io.async { [self] in
            let read = Result { try reader.next(limit: limit) }
            loop.execute {
                guard generation == self.bodyGeneration, self.phase == .sending, !self.isFinished, let socket = self.socket else { return }
                self.bodyReading = false
                guard self.bodyRead(read) else { return }
                self.loop.setInterest(socket, readable: true, writable: true)
                self.writeMore()
            }
        }
    }

    /// Frames a piece of the body read into `output`; false when the read failed (reported).
    private func bodyRead(_ read: Result<[UInt8], any Error>) -> Bool {
        switch read {
        case .success(let bytes):
            outputBodyBytes = bytes.count
            if body?.length == nil {
                output = bytes.isEmpty ? ChunkedEncoder.end() : ChunkedEncoder.chunk(bytes)
            } else {
                output = bytes
            }
            if bytes.isEmpty { bodyEnded = true }
            return true
        case .failure(let error):
            giveBack(reusable: false)
            report(.failure(HTTPClientFailure(.uploadFailed(underlying: error))))
            return false
        }
    }

    private func reportUploadProgress() {
        guard outputBodyBytes > 0 else { return }
        bodySent += Int64(outputBodyBytes)
        outputBodyBytes = 0
        guard let progress = request.uploadProgress, !isFinished else { return }
        progress(bodySent, body?.length)
    }

    /// The peer stopped taking the request. It may have answered already (413 to an upload, then
    /// closed), so the answer waiting on the socket is read before the failure is reported.
    private func writeFailed(_ number: Int32) {
        writeErrno = number
        phase = .receiving
        if let socket { loop.setInterest(socket, readable: true, writable: false) }
        socketReadable()
    }

    // MARK: - Receiving

    func socketWritable() {
        switch phase {
        case .connecting:
            if let socket { connectionFinished(socket) }
        case .sending:
            writeMore()
        default:
            break
        }
    }

    func socketReadable() {
        guard phase == .sending || phase == .receiving, let socket else { return }
        // Most answers fit in a few kilobytes: the buffer starts small (a zeroed 64 KB buffer for
        // every request was 3% of the CPU) and grows to `readChunk` once a read fills it.
        if readBuffer.isEmpty { readBuffer = [UInt8](repeating: 0, count: firstReadSize) }
        let result = readBuffer.withUnsafeMutableBytes { socket.receive(into: $0) }
        switch result {
        case .transferred(let count):
            receivedAny = true
            touch()
            received(readBuffer[0..<count])
            if count == readBuffer.count, count < readChunk {
                readBuffer = [UInt8](repeating: 0, count: min(readChunk, count * 4))
            }
        case .wouldBlock:
            // After a failed write nothing more will come that the kernel does not already hold.
            if let writeErrno { lost(writeErrno) }
        case .endOfStream:
            endOfStream()
        case .failed(let number):
            lost(writeErrno ?? number)
        }
    }

    private func received(_ bytes: ArraySlice<UInt8>) {
        let response: HTTPResponse?
        do throws(HTTPWireError) {
            response = try parser.feed(bytes)
        } catch {
            return fail(HTTPClientError(error))
        }
        guard writeBodyToFile() else { return }
        reportDownloadProgress()
        guard let response else { return }
        let reusable = phase == .receiving && writeErrno == nil && response.head.keepAlive && response.head.status != 101
            && parser.unusedBytes.isEmpty && !requestAsksToClose
        completed(response, reusable: reusable)
    }

    private func endOfStream() {
        do throws(HTTPWireError) {
            let response = try parser.finishAtEndOfStream()
            guard writeBodyToFile() else { return }
            completed(response, reusable: false)
        } catch {
            if case .truncatedHead(0) = error, retryOnFreshConnection() { return }
            fail(writeErrno.map { .connectionLost(errno: $0) } ?? HTTPClientError(error))
        }
    }

    private func lost(_ number: Int32) {
        if !receivedAny, retryOnFreshConnection() { return }
        fail(.connectionLost(errno: number))
    }

    /// A kept-alive connection the server had closed before this request: an idempotent request
    /// goes once more on a fresh connection (in the same slot). False when that does not apply.
    private func retryOnFreshConnection() -> Bool {
        guard reused, attempt == 1, !receivedAny,
              SocketRequestEncoding.isIdempotent(method), let stale = socket else { return false }
        cancelIdleTimer()
        loop.deregister(stale)
        stale.close()
        socket = nil
        connect()
        return true
    }

    /// Moves the body received so far to the download file; false when writing failed (reported).
    /// The body of a redirect this exchange follows is dropped: the file holds the final body only.
    private func writeBodyToFile() -> Bool {
        guard let file = request.downloadFile, parser.head != nil else { return true }
        let bytes = parser.takeBody()
        guard !headIsFollowedRedirect else { return true }
        let writer = download ?? DownloadFileWriter(file: file, queue: io)
        download = writer
        if let error = writer.failure {
            giveBack(reusable: false)
            report(.failure(HTTPClientFailure(.downloadFailed(underlying: error))))
            return false
        }
        if !bytes.isEmpty { writer.write(bytes) }
        return true
    }

    /// Whether the head received is a redirect that `completed` will follow.
    private var headIsFollowedRedirect: Bool {
        guard let head = parser.head, RedirectPolicy.statuses.contains(head.status) else { return false }
        return RedirectPolicy.nextRequest(after: request, status: head.status, location: head.headers["Location"]) != nil
    }

    private func reportDownloadProgress() {
        guard let progress = request.downloadProgress, !headIsFollowedRedirect, let text = parser.head?.headers["Content-Length"],
              let expected = Int(text.trimmingCharacters(in: .whitespaces)), expected > 0, !isFinished else { return }
        progress(min(1, Double(parser.bodyBytesReceived) / Double(expected)))
    }

    // MARK: - Ending

    private func completed(_ response: HTTPResponse, reusable: Bool) {
        let url = responseURL
        let head = response.head
        if RedirectPolicy.statuses.contains(head.status),
           let next = RedirectPolicy.nextRequest(after: request, status: head.status, location: head.headers["Location"]) {
            giveBack(reusable: reusable)
            guard redirects < configuration.maximumRedirects else {
                let partial = makeResponse(head, body: response.body, url: url)
                return report(.failure(HTTPClientFailure(.tooManyRedirects(redirects + 1), response: partial)))
            }
            let nextMethod = next.normalizedMethod
            if nextMethod != method { upload = nil }
            redirects += 1
            request = next
            method = nextMethod
            target = nil
            begin()
            return
        }
        giveBack(reusable: reusable)
        // With a download file the body went there as it arrived (`writeBodyToFile`).
        var data = request.downloadFile == nil ? response.body : []
        var decodeFailure: HTTPClientError?
        if request.downloadFile == nil {
            switch ContentDecoding.decode(response.body, headers: head.headers, limit: configuration.maximumResponseSize) {
            case .success(let decoded): data = decoded
            case .failure(let error): decodeFailure = error
            }
        }
        let made = makeResponse(head, body: data, url: url)
        if let decodeFailure { return report(.failure(HTTPClientFailure(decodeFailure, response: made))) }
        report(.success(made))
    }

    /// Reports `error` with whatever response head arrived, after giving the slot back.
    private func fail(_ error: HTTPClientError) {
        let url = responseURL
        let partial = parser.head.map { makeResponse($0, body: request.downloadFile == nil ? parser.takeBody() : [], url: url) }
        if let waitingID, let key = target?.key { pool.cancelWaiting(key, id: waitingID) }
        waitingID = nil
        giveBack(reusable: false)
        report(.failure(HTTPClientFailure(error, response: partial)))
    }

    /// Returns the connection slot: the socket goes back to the pool when `reusable`, else it is closed.
    private func giveBack(reusable: Bool) {
        cancelIdleTimer()
        if let connectTimer { loop.cancelTimer(connectTimer) }
        connectTimer = nil
        closeBody()
        if let socket { loop.deregister(socket) }
        if holdsSlot, let key = target?.key {
            pool.release(key, socket: socket, reusable: reusable && !isFinished, home: loop)
        } else {
            socket?.close()
        }
        holdsSlot = false
        socket = nil
        phase = .idle
    }

    /// After `cancel()`: frees everything the exchange holds; reports nothing.
    private func tearDown() {
        if let waitingID, let key = target?.key { pool.cancelWaiting(key, id: waitingID) }
        waitingID = nil
        giveBack(reusable: false)
        finishTimers()
        phase = .done
    }

    /// Reports `result` once; with a download, after the last byte is in the file (a write that
    /// failed turns a success into that failure).
    private func report(_ result: Result<HTTPClientResponse, HTTPClientFailure>) {
        let writer = download
        download = nil
        finishTimers()
        phase = .done
        let claimed = control.withLock { control -> Bool in
            guard !control.finished else { return false }
            control.finished = true
            return true
        }
        guard claimed else {
            writer?.finish { _ in }
            return
        }
        guard let writer else { return completion(result) }
        // Back on the loop to report, like every other answer, so that a caller sees progress
        // and the answer arrive from one thread, in order.
        writer.finish { [completion, loop] error in
            let final: Result<HTTPClientResponse, HTTPClientFailure>
            if let error, case .success = result {
                final = .failure(HTTPClientFailure(.downloadFailed(underlying: error)))
            } else {
                final = result
            }
            loop.execute { completion(final) }
        }
    }

    /// Cancels the overall timer and closes the download file.
    private func finishTimers() {
        if let overallTimer { loop.cancelTimer(overallTimer) }
        overallTimer = nil
        download?.finish { _ in }
        download = nil
    }

    // MARK: - Idle timer

    private func touch() {
        lastActivity = .now
    }

    private func armIdleTimer() {
        cancelIdleTimer()
        let timeout = idleTimeout
        idleTimer = loop.schedule(at: lastActivity + timeout) { [self] in
            idleTimer = nil
            guard phase == .opening || phase == .sending || phase == .receiving else { return }
            if ContinuousClock.now - lastActivity >= timeout {
                fail(timedOut(.idle, after: timeout))
            } else {
                armIdleTimer()
            }
        }
    }

    private func cancelIdleTimer() {
        if let idleTimer { loop.cancelTimer(idleTimer) }
        idleTimer = nil
    }

    /// The URL a response to the current request carries: the target's (read once at the
    /// start), else the request's.
    private var responseURL: URL {
        target?.url ?? request.url
    }

    private func makeResponse(_ head: HTTPResponseHead, body: [UInt8], url: URL) -> HTTPClientResponse {
        let file = request.downloadFile
        return HTTPClientResponse(head: head, body: body, url: url,
                                  fileURL: file.flatMap { _ in head.status < 300 || head.status >= 400 ? file : nil })
    }
}
