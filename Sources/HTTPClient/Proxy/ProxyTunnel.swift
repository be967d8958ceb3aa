import EventLoopIO

/// Opens a `CONNECT` tunnel on a connection just made to a proxy, for the `ConnectionOpener`
/// that made it: performs `ProxyTunnelMachine`'s actions on the connection's loop (writes the
/// request through the connection, reads the answer, bounds the wait with the connect timeout)
/// and reports once, after deregistering the socket: established, or failed (the connection
/// closed first, through its one close path).
final class ProxyTunnel: EventLoopHandler {
    private let connection: Connection
    private let timeout: Duration
    private var machine: ProxyTunnelMachine
    private var timer: Scheduled?
    private var report: ((Result<Void, ExchangeFailure>) -> Void)?

    init(connection: Connection, timeout: Duration, report: @escaping (Result<Void, ExchangeFailure>) -> Void) {
        self.connection = connection
        self.timeout = timeout
        let key = connection.key
        self.machine = ProxyTunnelMachine(host: key.host, port: key.port, authorization: key.proxy?.authorization)
        self.report = report
    }

    private var loop: EventLoop { connection.loop }
    private var socket: TCPSocket { connection.socket }

    /// Arms the timer and sends the `CONNECT` (on the loop).
    func start() {
        loop.assertInLoop()
        timer = loop.schedule(in: timeout) { [self] in
            timer = nil
            run(machine.timerFired())
        }
        loop.register(socket, readable: true, writable: false, handler: self)
        run(machine.start())
    }

    private func run(_ action: ProxyTunnelMachine.Action) {
        loop.assertInLoop()
        switch action {
        case .none:
            break
        case .write(let bytes):
            written(connection.write(bytes))
        case .awaitAnswer:
            loop.setInterest(socket, readable: true, writable: false)
        case .established:
            finish(.success(()))
        case .fail(let failure):
            finish(.failure(failure))
        }
    }

    /// What the connection's write (or flush) came to: all out, room awaited, or the peer gone.
    private func written(_ flush: Connection.Flush) {
        switch flush {
        case .done: run(machine.written())
        case .wouldBlock: loop.setInterest(socket, readable: true, writable: true)
        case .failed: run(machine.writeFailed())
        }
    }

    func socketWritable() {
        guard machine.state == .sending else { return }
        written(connection.flush())
    }

    func socketReadable() {
        // The answer's head is small: one read of what is there, then the machine decides.
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while machine.state == .sending || machine.state == .awaitingAnswer {
            let result = buffer.withUnsafeMutableBytes { socket.receive(into: $0) }
            switch result {
            case .transferred(let count):
                run(machine.received(buffer[..<count]))
            case .wouldBlock:
                return
            case .endOfStream:
                return run(machine.endOfStream())
            case .failed(let number):
                return run(machine.readFailed(errno: number))
            }
        }
    }

    /// Stops watching the socket and the timer, closes a failed tunnel's connection, and reports.
    private func finish(_ result: Result<Void, ExchangeFailure>) {
        timer?.cancel()
        timer = nil
        loop.deregister(socket)
        if case .failure = result { connection.close() }
        let report = self.report
        self.report = nil
        report?(result)
    }
}
