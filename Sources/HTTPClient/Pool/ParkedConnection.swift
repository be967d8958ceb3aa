import EventLoopIO
import SystemTLS

/// An idle kept-alive connection in the pool, watched for reading by its home loop, with a timer
/// for the time it may wait unused.
///
/// While it is idle, a readable socket means the server closed it (or sent bytes nobody asked
/// for): the pool lets go of it at once instead of finding out on the next request. On a TLS
/// connection the bytes are read first: TLS records that carry no data (a TLS 1.3 session ticket
/// arriving after the answer) keep it, and the session they bring is remembered for the host.
/// An exchange on the same loop that takes it registers its own handler in the watcher's place;
/// one on another loop has it moved (`move(to:)`): the home loop stops watching it, then hands
/// it over.
final class ParkedConnection: EventLoopHandler, @unchecked Sendable {
    // @unchecked: whether it is still idle is the pool's machine's to say (read under the pool's
    // lock); `idleTimer`, the connection and its registration are touched only on `loop`'s
    // thread (checked in debug builds).
    let connection: Connection
    let loop: EventLoop
    private weak var pool: ConnectionPool?
    private var idleTimer: Scheduled?

    init(connection: Connection, loop: EventLoop, pool: ConnectionPool) {
        self.connection = connection
        self.loop = loop
        self.pool = pool
    }

    var socket: TCPSocket { connection.socket }

    /// Starts watching the connection on its loop and arms its idle timer.
    func park(idleFor timeout: Duration) {
        loop.assertInLoop()
        loop.register(socket, readable: true, writable: false, handler: self)
        idleTimer = loop.schedule(in: timeout) { [self] in
            idleTimer = nil
            dropIfStillIdle()
        }
    }

    /// Taken by an exchange on this loop: stops the idle timer (the exchange registers itself in
    /// the watcher's place).
    func takenHere() {
        loop.assertInLoop()
        idleTimer?.cancel()
        idleTimer = nil
    }

    /// Taken by an exchange on `other`: stops watching the socket on its home loop, then runs
    /// `arrive` with the connection on `other`'s thread.
    func move(to other: EventLoop, _ arrive: @escaping @Sendable (Connection) -> Void) {
        loop.execute { [self] in
            takenHere()
            loop.deregister(socket, ifHandler: self)
            let connection = self.connection
            other.execute { arrive(connection) }
        }
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
            // Taken by an exchange elsewhere (its move stops the watch), or dropped already.
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

    /// Reads what the TLS connection received while idle; true when it carried no data and did
    /// not end the connection (it stays pooled, with the session it brought remembered).
    private func readsOnlyTLSRecords(_ tls: TLSMachine) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        switch buffer.withUnsafeMutableBytes({ socket.receive(into: $0) }) {
        case .transferred(let count):
            for action in tls.receive(ciphertext: buffer[0..<count]) {
                switch action {
                case .write(let bytes):
                    _ = bytes.withUnsafeBytes { socket.sendSome($0) }
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

    /// Registered for reading only.
    func socketWritable() {}
}
