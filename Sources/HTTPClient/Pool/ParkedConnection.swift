import EventLoopIO
import SystemTLS

/// An idle kept-alive connection in the pool, watched for reading on its loop, with a timer for
/// the time it may wait unused.
///
/// While it is idle, a readable socket means the server closed it (or sent bytes nobody asked
/// for): the pool lets go of it at once instead of finding out on the next request. On a TLS
/// connection the bytes are read first: TLS records that carry no data (a TLS 1.3 session ticket
/// arriving after the answer) keep it, and the session they bring is remembered for the host;
/// records TLS answers with are written through the connection's pending writes (watched for
/// room to write when the socket takes them only in part). A request that takes it runs on the
/// connection's loop and registers itself in the watcher's place.
final class ParkedConnection: EventLoopHandler, @unchecked Sendable {
    // @unchecked: whether it is still idle is the pool's machine's to say (read under the pool's
    // lock); `idleTimer`, the connection and its registration are touched only on the
    // connection's loop (checked in debug builds).
    let connection: Connection
    private weak var pool: ConnectionPool?
    private var idleTimer: Scheduled?

    init(connection: Connection, pool: ConnectionPool) {
        self.connection = connection
        self.pool = pool
    }

    /// The connection's loop, where it is watched.
    var loop: EventLoop { connection.loop }

    var socket: TCPSocket { connection.socket }

    /// Starts watching the connection on its loop (for room to write too while bytes are
    /// pending) and arms its idle timer.
    func park(idleFor timeout: Duration) {
        loop.assertInLoop()
        let flushed = connection.flush()
        loop.register(socket, readable: true, writable: flushed == .wouldBlock, handler: self)
        // The peer is gone already: dropped at once, as a readable socket would be.
        guard flushed != .failed else { return dropIfStillIdle() }
        idleTimer = loop.schedule(in: timeout) { [self] in
            idleTimer = nil
            dropIfStillIdle()
        }
    }

    /// Taken by a request (which runs on this loop): stops the idle timer; the request registers
    /// itself in the watcher's place.
    func takenHere() {
        loop.assertInLoop()
        idleTimer?.cancel()
        idleTimer = nil
    }

    /// Stops watching and closes the connection (the pool dropped it).
    func close() {
        loop.assertInLoop()
        idleTimer?.cancel()
        idleTimer = nil
        loop.deregister(socket, ifHandler: self)
        connection.close()
    }

    func socketReadable() {
        loop.assertInLoop()
        guard let pool, pool.isIdle(self) else {
            // Taken by a request that has not registered yet, or dropped already.
            loop.deregister(socket, ifHandler: self)
            return
        }
        guard let tls = connection.tls, readsOnlyTLSRecords(tls) else {
            guard pool.discard(self) else {
                loop.deregister(socket, ifHandler: self)
                return
            }
            return close()
        }
    }

    /// Room to write the bytes pending: watched for reading only once they are out.
    func socketWritable() {
        loop.assertInLoop()
        switch connection.flush() {
        case .done:
            loop.setInterest(socket, readable: true, writable: false)
        case .wouldBlock:
            break
        case .failed:
            dropIfStillIdle()
        }
    }

    /// Reads what the TLS connection received while idle; true when it carried no data and did
    /// not end the connection (it stays pooled, with the session it brought remembered, and the
    /// records TLS answered with pending on the connection until the socket takes them).
    private func readsOnlyTLSRecords(_ tls: TLSMachine) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        switch buffer.withUnsafeMutableBytes({ socket.receive(into: $0) }) {
        case .transferred(let count):
            for action in tls.receive(ciphertext: buffer[0..<count]) {
                switch action {
                case .write(let bytes):
                    switch connection.write(bytes) {
                    case .done: break
                    case .wouldBlock: loop.setInterest(socket, readable: true, writable: true)
                    case .failed: return false
                    }
                case .handshakeCompleted:
                    break
                case .deliver, .closed, .failed:
                    return false
                }
            }
            if let session = tls.session { pool?.remember(session, for: connection.key) }
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
