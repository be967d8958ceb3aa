import EventLoopIO
import SystemTLS

/// Secures a connection just opened to an `https` host (or to an HTTPS proxy; an origin's TLS
/// then runs inside the proxy's), for the `ConnectionOpener` that opened it: owns the
/// connection's channel while TLS's handshake runs on its loop (records pumped by the channel's
/// `ChannelTLS`, the wait bounded by the channel's timer, as long again as the connect may
/// take), and reports once: secured (the channel unwatched for its next owner), or failed (the
/// connection closed first, through its one close path). It belongs to the connection, not to a
/// request: a request that gives up meanwhile leaves it running, and the secured connection
/// serves the next waiter.
final class ConnectionHandshake: ChannelHandler {
    private let connection: Connection
    private var report: ((Result<Void, ExchangeFailure>) -> Void)?
    /// The most one read takes: a server's first flight (certificates) fits.
    private static let readSize = 16_384

    init(connection: Connection, report: @escaping (Result<Void, ExchangeFailure>) -> Void) {
        self.connection = connection
        self.report = report
    }

    private var channel: Channel { connection.channel }

    /// Takes the channel over and sends the ClientHello of `tls` (on the loop).
    func start(_ tls: TLSMachine, timeout: Duration) {
        connection.loop.assertInLoop()
        channel.handOver(to: self)
        channel.tls = ChannelTLS(machine: tls, inside: channel.tls)
        channel.setTimeout(timeout)
        guard channel.setReading(true) else { return finish(.failure(.connectionLost(errno: nil))) }
        perform(channel.startTLS())
    }

    func socketReadable() {
        connection.loop.assertInLoop()
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        while report != nil {
            switch buffer.withUnsafeMutableBytes({ connection.socket.receive(into: $0) }) {
            case .transferred(let count):
                perform(channel.unseal(buffer[..<count]))
            case .wouldBlock:
                return
            case .endOfStream:
                perform(channel.unsealEndOfStream())
                // The server's end, whatever TLS made of it, ends the handshake.
                finish(.failure(.connectionLost(errno: nil)))
            case .failed(let number):
                finish(.failure(.connectionLost(errno: number)))
            }
        }
    }

    func socketWritable() {
        connection.loop.assertInLoop()
        guard report != nil else { return }
        if case .failed(let number) = channel.flush() { finish(.failure(.connectionLost(errno: number))) }
    }

    /// The handshake took as long as it may.
    func channelDeadlinePassed() {
        finish(.failure(.timedOut(.connect)))
    }

    /// Performs what TLS made of the server's bytes (its records queued by the channel): the
    /// handshake's end secures the connection; a failure, or the server's end, fails it.
    private func perform(_ steps: [ChannelTLS.Step]) {
        var completed = false
        for step in steps {
            switch step {
            case .send:
                break  // queued by the channel
            case .handshakeCompleted(let handshake):
                connection.handshake = handshake
                connection.securedAt = .now
                completed = true
            case .deliver:
                // Data nobody asked for yet: not a server to send a request to.
                return finish(.failure(.connectionLost(errno: nil)))
            case .failed(let failure):
                // The alert goes out as far as the socket takes it now.
                _ = channel.flush()
                return finish(.failure(.tls(failure)))
            }
        }
        if channel.tls?.takeEnd() != nil { return finish(.failure(.connectionLost(errno: nil))) }
        if case .failed(let number) = channel.flush() { return finish(.failure(.connectionLost(errno: number))) }
        if completed { finish(.success(())) }
    }

    /// Stops reading and the timer (closes a failed connection), and reports once.
    private func finish(_ result: Result<Void, ExchangeFailure>) {
        guard let report else { return }
        self.report = nil
        if case .failure = result {
            connection.close()
        } else {
            channel.unwatch()
        }
        report(result)
    }
}
