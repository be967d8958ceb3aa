import EventLoopIO

/// Opens a `CONNECT` tunnel on a socket just connected to a proxy, for the `ConnectionOpener`
/// that made it: performs `ProxyTunnelMachine`'s actions on the socket's loop (writes the
/// request, reads the answer, bounds the wait with the connect timeout) and reports once, after
/// deregistering the socket: `established` hands it back, any failure closes it first.
final class ProxyTunnel: EventLoopHandler {
    private let socket: TCPSocket
    private let loop: EventLoop
    private let timeout: Duration
    private var machine: ProxyTunnelMachine
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var timer: Scheduled?
    private var report: ((Result<TCPSocket, ExchangeFailure>) -> Void)?

    init(socket: TCPSocket, loop: EventLoop, key: ConnectionPoolKey, timeout: Duration,
         report: @escaping (Result<TCPSocket, ExchangeFailure>) -> Void) {
        self.socket = socket
        self.loop = loop
        self.timeout = timeout
        self.machine = ProxyTunnelMachine(host: key.host, port: key.port, authorization: key.proxy?.authorization)
        self.report = report
    }

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
            output = bytes
            outputOffset = 0
            writeMore()
        case .awaitAnswer:
            loop.setInterest(socket, readable: true, writable: false)
        case .established:
            finish(.success(socket))
        case .fail(let failure):
            finish(.failure(failure))
        }
    }

    private func writeMore() {
        while outputOffset < output.count {
            let result = output.withUnsafeBytes { socket.sendSome(UnsafeRawBufferPointer(rebasing: $0[outputOffset...])) }
            switch result {
            case .transferred(let count):
                outputOffset += count
            case .wouldBlock, .endOfStream:
                loop.setInterest(socket, readable: true, writable: true)
                return
            case .failed(let number):
                return run(machine.ioFailed(errno: number))
            }
        }
        output = []
        run(machine.written())
    }

    func socketWritable() {
        guard machine.state == .sending else { return }
        writeMore()
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
                return run(machine.ioFailed(errno: number))
            }
        }
    }

    /// Stops watching the socket and the timer, closes the socket of a failed tunnel, and reports.
    private func finish(_ result: Result<TCPSocket, ExchangeFailure>) {
        timer?.cancel()
        timer = nil
        loop.deregister(socket)
        if case .failure = result { socket.close() }
        let report = self.report
        self.report = nil
        report?(result)
    }
}
