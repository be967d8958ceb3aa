import EventLoopIO

/// Opens a tunnel on a connection just made to a proxy, for the `ConnectionOpener` that made it:
/// performs a negotiation's actions (`CONNECT`'s, SOCKS5's, SOCKS4's) on the connection's loop (writes its
/// messages through the connection, reads the answers, bounds the wait with the connect
/// timeout) and reports once, after it stops reading: established, or failed (the connection
/// closed first, through its one close path). It owns the connection's channel meanwhile. To an
/// HTTPS proxy the messages and answers go through the channel's TLS, established before.
final class ProxyTunnel: ChannelHandler {
    private let connection: Connection
    private let timeout: Duration
    private var machine: any TunnelNegotiation
    private var report: ((Result<Void, ExchangeFailure>) -> Void)?

    init(connection: Connection, negotiation: any TunnelNegotiation, timeout: Duration,
         report: @escaping (Result<Void, ExchangeFailure>) -> Void) {
        self.connection = connection
        self.timeout = timeout
        self.machine = negotiation
        self.report = report
    }

    private var loop: EventLoop { connection.loop }
    private var socket: TCPSocket { connection.socket }

    /// Arms the timer and sends the negotiation's first message (on the loop).
    func start() {
        loop.assertInLoop()
        connection.channel.handOver(to: self)
        connection.channel.setTimeout(timeout)
        guard connection.channel.setReading(true) else { return finish(.failure(.connectionLost(errno: nil))) }
        run(machine.start())
    }

    private func run(_ action: TunnelAction) {
        loop.assertInLoop()
        switch action {
        case .none:
            break
        case .write(let bytes):
            do throws(TLSFailure) {
                written(try connection.write(bytes))
            } catch {
                finish(.failure(.tls(error)))
            }
        case .awaitAnswer:
            connection.channel.setReading(true)
        case .established:
            finish(.success(()))
        case .fail(let failure):
            finish(.failure(failure))
        }
    }

    /// What the connection's write (or flush) came to: all out, room awaited, or the peer gone.
    private func written(_ flush: Channel.Flush) {
        switch flush {
        case .done: run(machine.written())
        case .wouldBlock: break  // the channel watches for room
        case .failed: run(machine.writeFailed())
        }
    }

    func socketWritable() {
        guard machine.isSending else { return }
        written(connection.channel.flush())
    }

    /// The connect timeout ran out before the tunnel was open.
    func channelDeadlinePassed() {
        run(machine.timerFired())
    }

    func socketReadable() {
        // The answers are small: one read of what is there, then the machine decides.
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while machine.isNegotiating {
            let result = buffer.withUnsafeMutableBytes { socket.receive(into: $0) }
            switch result {
            case .transferred(let count):
                guard connection.channel.tls != nil else {
                    run(machine.received(buffer[..<count]))
                    continue
                }
                unsealed(connection.channel.unseal(buffer[..<count]))
            case .wouldBlock:
                return
            case .endOfStream:
                if connection.channel.tls != nil { return unsealed(connection.channel.unsealEndOfStream()) }
                return run(machine.endOfStream())
            case .failed(let number):
                return run(machine.readFailed(errno: number))
            }
        }
    }

    /// What the HTTPS proxy's TLS made of one read (its own records queued by the channel, sent
    /// with the next write): the answer's bytes to the machine at once, as a plain read's are,
    /// then the proxy's end, if it came.
    private func unsealed(_ steps: [ChannelTLS.Step]) {
        var answer: [UInt8] = []
        for step in steps {
            switch step {
            case .deliver(let bytes): answer += bytes
            case .failed(let failure): return finish(.failure(.tls(failure)))
            case .send, .handshakeCompleted: break  // queued by the channel; its handshake completed before
            }
        }
        if !answer.isEmpty { run(machine.received(answer[...])) }
        guard report != nil, connection.channel.tls?.takeEnd() != nil else { return }
        run(machine.endOfStream())
    }

    /// Stops reading the socket and the timer, closes a failed tunnel's connection, and reports.
    private func finish(_ result: Result<Void, ExchangeFailure>) {
        if case .failure = result {
            connection.close()
        } else {
            connection.channel.unwatch()
        }
        let report = self.report
        self.report = nil
        report?(result)
    }
}
