import EventLoopIO
import SystemTLS

/// An idle kept-alive connection in the pool: the owner of its channel while it waits, watching
/// it for reading, with the channel's timer bounding the time it may wait unused.
///
/// While it is idle, a readable socket means the server closed it (or sent bytes nobody asked
/// for): the pool lets go of it at once instead of finding out on the next request. On a TLS
/// connection the bytes are read first: TLS records that carry no data (a TLS 1.3 session ticket
/// arriving after the answer) keep it, and the session they bring is remembered for the host;
/// records TLS answers with go on the channel's queue (which watches for room while the socket
/// takes them only in part, and which the next request's bytes follow). A request that takes it
/// runs on the connection's loop and takes the channel over.
final class ParkedConnection: ChannelHandler, @unchecked Sendable {
    // @unchecked: whether it is still idle is the pool's machine's to say (read under the pool's
    // lock); the connection's channel is touched only on the connection's loop (checked in debug
    // builds).
    let connection: Connection
    private weak var pool: ConnectionPool?

    init(connection: Connection, pool: ConnectionPool) {
        self.connection = connection
        self.pool = pool
    }

    /// The connection's loop, where it is watched.
    var loop: EventLoop { connection.loop }

    private var channel: Channel { connection.channel }

    /// Takes the channel over: watches it for reading (for room to write too while bytes are
    /// queued), writes what the socket takes, and gives it `timeout` unused.
    func park(idleFor timeout: Duration) {
        loop.assertInLoop()
        channel.handOver(to: self)
        // The loop refused the socket, or the peer is gone already: dropped at once, as a
        // readable socket would be.
        guard channel.setReading(true) else { return dropIfStillIdle() }
        if channel.flush().isFailed { return dropIfStillIdle() }
        channel.setTimeout(timeout)
    }

    /// Taken by a request (which runs on this loop): stops the idle timer; the request takes the
    /// channel over.
    func takenHere() {
        loop.assertInLoop()
        channel.setTimeout(nil)
    }

    /// Closes the connection (the pool dropped it).
    func close() {
        loop.assertInLoop()
        connection.close()
    }

    func socketReadable() {
        loop.assertInLoop()
        guard let pool, pool.isIdle(self) else {
            // Taken by a request that has not taken the channel over yet, or dropped already.
            channel.setReading(false)
            return
        }
        guard connection.tls != nil, readsOnlyTLSRecords() else {
            guard pool.discard(self) else {
                channel.setReading(false)
                return
            }
            return close()
        }
    }

    /// Room to write the bytes queued: the channel watches for reading only once they are out.
    func socketWritable() {
        loop.assertInLoop()
        if channel.flush().isFailed { dropIfStillIdle() }
    }

    /// It waited unused for as long as it may.
    func channelDeadlinePassed() {
        loop.assertInLoop()
        dropIfStillIdle()
    }

    /// Reads what the TLS connection received while idle; true when it carried no data and did
    /// not end the connection (it stays pooled, with the session it brought remembered, and the
    /// records TLS answered with queued on the channel until the socket takes them).
    private func readsOnlyTLSRecords() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        switch buffer.withUnsafeMutableBytes({ connection.socket.receive(into: $0) }) {
        case .transferred(let count):
            for step in channel.unseal(buffer[0..<count]) {
                switch step {
                case .send, .handshakeCompleted:
                    break  // records are queued by the channel
                case .deliver, .failed:
                    return false
                }
            }
            guard channel.tls?.takeEnd() == nil, !channel.flush().isFailed else { return false }
            if let session = connection.tls?.session { pool?.remember(session, for: connection.key) }
            return true
        case .wouldBlock:
            return true
        case .endOfStream, .failed:
            return false
        }
    }

    private func dropIfStillIdle() {
        guard pool?.discard(self) == true else { return }
        close()
    }
}
