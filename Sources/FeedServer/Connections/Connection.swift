import HTTPWire
import EventLoopIO

/// One accepted connection, served on its event loop without waiting: reads requests one after
/// another (keep-alive, pipelined), answers each through the router, and closes when the exchange
/// or the server ends it. The decisions are `machine`'s; this performs its actions and keeps the
/// socket, the output and the current wait's timer.
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
    /// Bytes handed out by the machine that the socket has not taken yet.
    private var output: ArraySlice<UInt8> = []
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

    /// Starts reading requests (nothing when the connection was closed first).
    func start() {
        loop.assertInLoop()
        guard !closed else { return }
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

    /// Performs `first` and the actions that follow it, until one waits or closes.
    private func run(_ first: ConnectionStateMachine.Action?) {
        var next = first
        while let action = next, !closed {
            next = perform(action)
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
            return send(bytes)
        case .awaitReadable(let timeout):
            watch(readable: true, writable: false)
            setDeadline(timeout)
        case .awaitWritable(let timeout):
            watch(readable: false, writable: true)
            setDeadline(timeout)
        case .awaitTimer(let delay):
            // Not watched at all: a socket watched for nothing would still report a hang-up,
            // again and again, until the timer fires.
            unwatch()
            setDeadline(delay)
        case .keepWaiting:
            break
        case .close:
            close()
        case .abandon:
            server.countAbandonedImage()
            close()
        case .lingeringClose(let timeout):
            socket.shutdownWrite()
            watch(readable: true, writable: false)
            setDeadline(timeout)
        case .reset:
            socket.setLingerZero()
            close()
        }
        return nil
    }

    // MARK: - Bytes between the socket and HTTP

    // The only two places that move bytes: `receive()` hands the machine what the socket read,
    // `send(_:)` and `flush()` hand the socket what the machine wrote. A TLS layer sits here: its
    // machine takes the bytes read and gives the plaintext to `machine.bytesRead` (and may have
    // bytes of its own to send), and takes the plaintext to send and gives its records to `output`.

    /// Reads what the socket holds now and tells the machine.
    private func receive() -> ConnectionStateMachine.Action? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.readSize) { buffer in
            switch socket.receive(into: UnsafeMutableRawBufferPointer(buffer)) {
            case .transferred(let count):
                return machine.bytesRead(UnsafeBufferPointer(rebasing: buffer[..<count]))
            case .endOfStream:
                return machine.endOfStream()
            case .wouldBlock:
                return nil
            case .failed:
                return machine.readFailed()
            }
        }
    }

    /// Writes `bytes` (the machine hands out more only once they are all out).
    private func send(_ bytes: ArraySlice<UInt8>) -> ConnectionStateMachine.Action {
        output = bytes
        return flush()
    }

    /// Writes what the socket takes of the output and tells the machine how far it got.
    private func flush() -> ConnectionStateMachine.Action {
        while !output.isEmpty {
            switch output.withUnsafeBytes({ socket.sendSome($0) }) {
            case .transferred(let count):
                output.removeFirst(count)
            case .wouldBlock, .endOfStream:
                return machine.outputBlocked()
            case .failed:
                output = []
                return machine.writeFailed()
            }
        }
        return machine.outputFlushed()
    }

    // MARK: - Readiness, the wait's timer, closing

    private func watch(readable: Bool, writable: Bool) {
        if registered {
            loop.setInterest(socket, readable: readable, writable: writable)
            return
        }
        guard loop.register(socket, readable: readable, writable: writable, handler: self) == 0 else {
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

    /// Closes the socket (once) and tells the server.
    private func close() {
        loop.assertInLoop()
        guard !closed else { return }
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
