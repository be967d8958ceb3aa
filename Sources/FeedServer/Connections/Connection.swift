import EventLoopIO
import HTTPWire
import SystemTLS

/// One accepted connection, served on its event loop without waiting: reads requests one after
/// another (keep-alive, pipelined), answers each through the router, and closes when the exchange
/// or the server ends it. The decisions are `machine`'s; this performs its actions and keeps the
/// socket, the output and the current wait's timer. On a server that speaks TLS, `tls` sits
/// between the socket and the machine: the handshake, records both ways, `close_notify` on close.
///
/// Everything but `closeOnLoop()` runs on `loop`'s thread (checked in debug builds).
final class Connection: EventLoopHandler, @unchecked Sendable {
    // @unchecked: the `var`s are touched only on `loop`'s thread (checked in debug builds); the
    // `let`s are immutable and Sendable.
    let server: FeedServer
    let loop: EventLoop
    let socket: TCPSocket
    /// The connection's place in the order of admission: the request tally's shard it counts in.
    let number: Int
    private var machine: ConnectionStateMachine
    /// TLS between the socket and the machine (nil: plain HTTP), made in `start()`.
    private var tls: ConnectionTLS?
    /// Bytes for the socket that it has not taken yet: the machine's output (encrypted over TLS)
    /// and TLS's own records (the handshake's, alerts).
    private var output: ArraySlice<UInt8> = []
    /// Whether `output` ends with a write of the machine's, which waits to hear how it went
    /// (`outputFlushed()`); the machine hands out more only then.
    private var writing = false
    /// Whether the machine's current wait reads the socket.
    private var reading = false
    /// Our side of the socket is shut (a lingering close): nothing more is sent.
    private var writeShut = false
    private var registered = false
    private var closed = false
    /// When the current wait gives up (nil: never).
    private var deadline: ContinuousClock.Instant?
    /// The timer armed for `deadline` or for an earlier one (it then arms itself again), and when it fires.
    private var timer: Scheduled?
    private var timerDue: ContinuousClock.Instant?

    /// The most one read takes from the socket.
    static let readSize = 65_536

    init(server: FeedServer, socket: TCPSocket, loop: EventLoop, number: Int) {
        self.server = server
        self.socket = socket
        self.loop = loop
        self.number = number
        machine = ConnectionStateMachine(configuration: server.configuration)
    }

    /// Starts reading requests (nothing when the connection was closed first); over TLS, the
    /// client's handshake first.
    func start() {
        loop.assertInLoop()
        guard !closed else { return }
        if let context = server.tlsContext {
            do throws(TLSFailure) {
                tls = try ConnectionTLS(context: context)
            } catch {
                return close(endingTLS: false)
            }
        }
        run(machine.start())
    }

    /// Closes the connection on its loop: at once when called there, else soon. Callable from any thread.
    func closeOnLoop() {
        loop.runOnLoop { [self] in close() }
    }

    func socketReadable() {
        loop.assertInLoop()
        guard !closed else { return }
        run(receive())
    }

    func socketWritable() {
        loop.assertInLoop()
        guard !closed else { return }
        run(flush())
    }

    // MARK: - Performing the machine's actions

    /// Performs `first` and the actions that follow it, until one waits or closes. A wait that
    /// reads while TLS holds the peer's end reads that end at once.
    private func run(_ first: ConnectionStateMachine.Action?) {
        var next = first
        while !closed {
            if let action = next {
                next = perform(action)
            } else if reading, tls?.takeEnd() == true {
                next = machine.endOfStream()
            } else {
                return
            }
        }
    }

    /// Performs `action`; returns the machine's next one when the action finished at once.
    private func perform(_ action: ConnectionStateMachine.Action) -> ConnectionStateMachine.Action? {
        loop.assertInLoop()
        switch action {
        case .countHead(let head):
            server.record(head, connection: number)
            return machine.headCounted()
        case .route(let request, let afterWait):
            let received = ReceivedRequest(head: request.head, body: request.body)
            return machine.routed(Router.handle(received, server: server, keepAlive: request.head.keepAlive, afterWait: afterWait))
        case .write(let bytes):
            return send(bytes, withholding: 0)
        case .writeCut(let bytes, let withholding):
            return send(bytes, withholding: withholding)
        case .awaitReadable(let timeout):
            reading = true
            updateInterest()
            setDeadline(timeout)
        case .awaitWritable(let timeout):
            reading = false
            updateInterest()
            setDeadline(timeout)
        case .awaitTimer(let delay):
            // Not watched for reading: a socket watched for nothing would still report a
            // hang-up, again and again, until the timer fires.
            reading = false
            updateInterest()
            setDeadline(delay)
        case .keepWaiting:
            break
        case .close:
            close()
        case .abort:
            close(endingTLS: false)
        case .abandon:
            server.countAbandonedImage()
            close()
        case .lingeringClose(let timeout):
            if let notify = tls?.close() { queue(notify) }
            sendWhatTheSocketTakes()
            socket.shutdownWrite()
            writeShut = true
            reading = true
            updateInterest()
            setDeadline(timeout)
        case .reset:
            socket.setLingerZero()
            close(endingTLS: false)
        }
        return nil
    }

    // MARK: - Bytes between the socket and HTTP

    // The only places that move bytes: `receive()` hands the machine what the socket read (over
    // TLS, what it decrypts to, through `performTLS(_:)`), `send(_:withholding:)` queues what the
    // machine writes (over TLS, encrypted) and `flush()` hands the socket the output.

    /// Reads what the socket holds now and tells the machine.
    private func receive() -> ConnectionStateMachine.Action? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.readSize) { buffer in
            switch socket.receive(into: UnsafeMutableRawBufferPointer(buffer)) {
            case .transferred(let count):
                let bytes = UnsafeBufferPointer(rebasing: buffer[..<count])
                guard let steps = tls?.received(ciphertext: UnsafeRawBufferPointer(bytes)) else { return machine.bytesRead(bytes) }
                return performTLS(steps)
            case .endOfStream:
                guard let steps = tls?.receivedEndOfStream() else { return machine.endOfStream() }
                return performTLS(steps)
            case .wouldBlock:
                return nil
            case .failed:
                return machine.readFailed()
            }
        }
    }

    /// Performs what TLS made of the bytes read: its records go out, a completed handshake is
    /// counted, the plaintext goes to the machine (the peer's end follows once the machine reads
    /// again: `run`); a failure ends the connection.
    private func performTLS(_ steps: [ConnectionTLS.Step]) -> ConnectionStateMachine.Action? {
        var plaintext: ArraySlice<UInt8> = []
        for step in steps {
            switch step {
            case .send(let records):
                queue(records)
            case .deliver(let bytes):
                if plaintext.isEmpty { plaintext = bytes } else { plaintext += bytes }
            case .handshakeCompleted(let handshake):
                server.countHandshake(handshake)
            case .failed:
                sendWhatTheSocketTakes()
                close(endingTLS: false)
                return nil
            }
        }
        if !writing, let failed = flush() { return failed }
        return plaintext.isEmpty ? nil : machine.bytesRead(plaintext)
    }

    /// Writes `bytes` but the last `withholding` that would go on the wire (the machine hands out
    /// more only once they are all out).
    private func send(_ bytes: ArraySlice<UInt8>, withholding: Int) -> ConnectionStateMachine.Action? {
        if let tls {
            for step in tls.seal(bytes, withholding: withholding) {
                switch step {
                case .send(let records):
                    queue(records)
                case .failed:
                    sendWhatTheSocketTakes()
                    close(endingTLS: false)
                    return nil
                case .deliver, .handshakeCompleted:
                    break  // sealing only sends or fails
                }
            }
        } else {
            queue(bytes.dropLast(withholding))
        }
        writing = true
        return flush()
    }

    /// Adds `bytes` to the output (nothing once our side is shut).
    private func queue(_ bytes: ArraySlice<UInt8>) {
        guard !writeShut, !bytes.isEmpty else { return }
        if output.isEmpty {
            output = bytes
        } else {
            output.append(contentsOf: bytes)
        }
    }

    private func queue(_ bytes: [UInt8]) {
        queue(bytes[...])
    }

    /// Writes what the socket takes of the output; tells the machine how far its write got
    /// (nil while only TLS's own records wait, which are watched for room meanwhile).
    private func flush() -> ConnectionStateMachine.Action? {
        while !output.isEmpty {
            switch output.withUnsafeBytes({ socket.sendSome($0) }) {
            case .transferred(let count):
                output.removeFirst(count)
            case .wouldBlock, .endOfStream:
                guard writing else {
                    updateInterest()
                    return nil
                }
                return machine.outputBlocked()
            case .failed:
                output = []
                writing = false
                return machine.writeFailed()
            }
        }
        guard writing else {
            updateInterest()
            return nil
        }
        writing = false
        return machine.outputFlushed()
    }

    /// Sends what the socket takes of the output now, without waiting, and drops the rest: the
    /// last bytes before a close.
    private func sendWhatTheSocketTakes() {
        while !output.isEmpty, case .transferred(let count) = output.withUnsafeBytes({ socket.sendSome($0) }) {
            output.removeFirst(count)
        }
        output = []
        writing = false
    }

    // MARK: - Readiness, the wait's timer, closing

    /// Watches the socket for bytes while the machine's wait reads it, and for room while output
    /// waits; not at all when neither.
    private func updateInterest() {
        let writable = !output.isEmpty
        guard reading || writable else { return unwatch() }
        if registered {
            loop.setInterest(socket, readable: reading, writable: writable)
            return
        }
        guard loop.register(socket, readable: reading, writable: writable, handler: self) == 0 else {
            close()
            return
        }
        registered = true
    }

    private func unwatch() {
        guard registered else { return }
        loop.deregister(socket)
        registered = false
    }

    /// Gives the current wait `timeout` (nil: none). A timer already armed to fire earlier is
    /// kept, and arms itself again for the rest when it fires: a request on a kept-alive
    /// connection moves a deadline instead of cancelling and arming a timer.
    private func setDeadline(_ timeout: Duration?) {
        guard !closed, let timeout else {
            deadline = nil
            cancelTimer()
            return
        }
        let due = ContinuousClock.now + timeout
        deadline = due
        if let timerDue, timerDue <= due { return }
        cancelTimer()
        arm(at: due)
    }

    private func arm(at due: ContinuousClock.Instant) {
        timerDue = due
        timer = loop.schedule(at: due) { [self] in timerExpired() }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerDue = nil
    }

    private func timerExpired() {
        loop.assertInLoop()
        timer = nil
        timerDue = nil
        guard !closed, let deadline else { return }
        guard ContinuousClock.now >= deadline else {
            arm(at: deadline)
            return
        }
        self.deadline = nil
        run(machine.timerFired())
    }

    /// Closes the socket (once) and tells the server; over TLS, after a `close_notify` (as much
    /// of it as the socket takes at once) unless `endingTLS` is false.
    private func close(endingTLS: Bool = true) {
        loop.assertInLoop()
        guard !closed else { return }
        if endingTLS, let notify = tls?.close() {
            queue(notify)
            sendWhatTheSocketTakes()
        }
        closed = true
        deadline = nil
        cancelTimer()
        unwatch()
        output = []
        socket.close()
        server.connectionClosed(self)
    }
}

/// A request as the server received it.
struct ReceivedRequest {
    let head: HTTPRequestHead
    let body: [UInt8]
}
