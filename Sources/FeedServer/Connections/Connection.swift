import EventLoopIO
import HTTPWire
import SystemTLS

/// One accepted connection, served on its event loop without waiting: reads requests one after
/// another (keep-alive, pipelined), answers each through the router, and closes when the exchange
/// or the server ends it. The decisions are `machine`'s; this performs its actions through its
/// `channel` (EventLoopIO's byte side: the socket, the queued output, read interest, the wait's
/// timer, the one close path). On a server that speaks TLS, the channel's `ChannelTLS` sits
/// between the socket and the machine: the handshake, records both ways, `close_notify` on close.
///
/// Everything but `closeOnLoop()` runs on `loop`'s thread (checked in debug builds).
final class Connection: ChannelHandler, @unchecked Sendable {
    // @unchecked: the `var`s are touched only on `loop`'s thread (checked in debug builds); the
    // `let`s are immutable and Sendable.
    let server: FeedServer
    let loop: EventLoop
    let socket: TCPSocket
    /// The connection's place in the order of admission: the request tally's shard it counts in.
    let number: Int
    private var machine: ConnectionStateMachine
    /// The socket's byte side: output not taken yet, what the loop watches, the wait's timer.
    private lazy var channel = Channel(socket: socket, loop: loop, handler: self)
    /// Whether the channel's output ends with a write of the machine's, which waits to hear how
    /// it went (`outputFlushed()`); the machine hands out more only then.
    private var writing = false
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
        guard !channel.isClosed else { return }
        if let context = server.tlsContext {
            do throws(TLSFailure) {
                channel.tls = ChannelTLS(machine: try TLSMachine(server: context))
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
        guard !channel.isClosed else { return }
        run(receive())
    }

    func socketWritable() {
        loop.assertInLoop()
        guard !channel.isClosed else { return }
        run(flush())
    }

    func channelDeadlinePassed() {
        loop.assertInLoop()
        run(machine.timerFired())
    }

    // MARK: - Performing the machine's actions

    /// Performs `first` and the actions that follow it, until one waits or closes. A wait that
    /// reads while TLS holds the peer's end reads that end at once.
    private func run(_ first: ConnectionStateMachine.Action?) {
        var next = first
        while !channel.isClosed {
            if let action = next {
                next = perform(action)
            } else if channel.isReading, channel.tls?.takeEnd() != nil {
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
            return machine.routed(Router.handle(received, server: server, keepAlive: request.head.allowsNextRequest, afterWait: afterWait))
        case .write(let bytes):
            return send(bytes, withholding: 0)
        case .writeCut(let bytes, let withholding):
            return send(bytes, withholding: withholding)
        case .awaitReadable(let timeout):
            wait(reading: true, timeout: timeout)
        case .awaitWritable(let timeout):
            wait(reading: false, timeout: timeout)
        case .awaitTimer(let delay):
            // Not watched for reading: a socket watched for nothing would still report a
            // hang-up, again and again, until the timer fires.
            wait(reading: false, timeout: delay)
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
            channel.shutdownWrite()
            wait(reading: true, timeout: timeout)
        case .reset:
            socket.setLingerZero()
            close(endingTLS: false)
        }
        return nil
    }

    // MARK: - Bytes between the socket and HTTP

    // The only places that move bytes: `receive()` hands the machine what the socket read (over
    // TLS, what the channel decrypts it to, through `performTLS(_:)`), `send(_:withholding:)`
    // queues what the machine writes (over TLS, sealed by the channel) and `flush()` hands the
    // socket the output.

    /// Reads what the socket holds now and tells the machine.
    private func receive() -> ConnectionStateMachine.Action? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.readSize) { buffer in
            switch socket.receive(into: UnsafeMutableRawBufferPointer(buffer)) {
            case .transferred(let count):
                let bytes = UnsafeBufferPointer(rebasing: buffer[..<count])
                guard channel.tls != nil else { return machine.bytesRead(bytes) }
                return performTLS(channel.unseal(UnsafeRawBufferPointer(bytes)))
            case .endOfStream:
                guard channel.tls != nil else { return machine.endOfStream() }
                return performTLS(channel.unsealEndOfStream())
            case .wouldBlock:
                return nil
            case .failed:
                return machine.readFailed()
            }
        }
    }

    /// Performs what TLS made of the bytes read (its records queued by the channel): a
    /// completed handshake is counted, the plaintext goes to the machine (the peer's end follows
    /// once the machine reads again: `run`); a failure ends the connection.
    private func performTLS(_ steps: [ChannelTLS.Step]) -> ConnectionStateMachine.Action? {
        var plaintext: ArraySlice<UInt8> = []
        for step in steps {
            switch step {
            case .send:
                break  // queued by the channel
            case .deliver(let bytes):
                if plaintext.isEmpty { plaintext = bytes } else { plaintext += bytes }
            case .handshakeCompleted(let handshake):
                server.countHandshake(handshake)
            case .failed:
                channel.sendWhatTheSocketTakes()
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
        if channel.tls != nil {
            if channel.seal(bytes, withholding: withholding) != nil {
                channel.sendWhatTheSocketTakes()
                close(endingTLS: false)
                return nil
            }
        } else {
            channel.queue(bytes.dropLast(withholding))
        }
        writing = true
        return flush()
    }

    /// Writes what the socket takes of the output; tells the machine how far its write got
    /// (nil while only TLS's own records wait, which the channel watches for room meanwhile).
    private func flush() -> ConnectionStateMachine.Action? {
        switch channel.flush() {
        case .done:
            guard writing else { return nil }
            writing = false
            return machine.outputFlushed()
        case .wouldBlock:
            guard writing else { return nil }
            return machine.outputBlocked()
        case .failed:
            writing = false
            return machine.writeFailed()
        }
    }

    // MARK: - Waiting, closing

    /// Waits as the machine says: the socket watched for bytes when `reading` (for room while
    /// output waits), until `timeout` (nil: none).
    private func wait(reading: Bool, timeout: Duration?) {
        guard channel.setReading(reading) else { return close() }
        channel.setTimeout(timeout)
    }

    /// Closes the channel (once) and tells the server; over TLS, after a `close_notify` (as much
    /// of it as the socket takes at once) unless `endingTLS` is false.
    private func close(endingTLS: Bool = true) {
        loop.assertInLoop()
        guard !channel.isClosed else { return }
        if endingTLS {
            channel.close()
        } else {
            channel.abort()
        }
        server.connectionClosed(self)
    }
}

/// A request as the server received it.
struct ReceivedRequest {
    let head: HTTPRequestHead
    let body: [UInt8]
}
