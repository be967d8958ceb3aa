import EventLoopIO

/// An idle kept-alive connection in the pool, watched for reading by its home loop, with a timer
/// for the time it may wait unused.
///
/// While it is idle, a readable socket means the server closed it (or sent bytes nobody asked
/// for): the pool lets go of it at once instead of finding out on the next request. An exchange
/// on the same loop that takes it registers its own handler in the watcher's place; one on
/// another loop has it moved (`move(to:)`): the home loop stops watching it, then hands it over.
final class ParkedConnection: EventLoopHandler, @unchecked Sendable {
    // @unchecked: `state` is read and written only under the pool's lock; `idleTimer` and the
    // registration only on `loop`'s thread (checked in debug builds).
    enum State {
        /// In the pool's idle list.
        case idle
        /// Taken by an exchange.
        case taken
        /// Dropped by the pool (closed by its server, idle too long, or the pool emptied).
        case closed
    }

    let socket: TCPSocket
    let loop: EventLoop
    let key: ConnectionPoolKey
    private weak var pool: ConnectionPool?
    var state = State.idle
    private var idleTimer: Scheduled?

    init(socket: TCPSocket, loop: EventLoop, key: ConnectionPoolKey, pool: ConnectionPool) {
        self.socket = socket
        self.loop = loop
        self.key = key
        self.pool = pool
    }

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
    /// `arrive` with it on `other`'s thread.
    func move(to other: EventLoop, _ arrive: @escaping @Sendable (TCPSocket) -> Void) {
        loop.execute { [self] in
            takenHere()
            loop.deregister(socket, ifHandler: self)
            let socket = self.socket
            other.execute { arrive(socket) }
        }
    }

    /// Stops watching and closes the connection (the pool dropped it).
    func close() {
        loop.assertInLoop()
        idleTimer?.cancel()
        idleTimer = nil
        loop.deregister(socket, ifHandler: self)
        socket.close()
    }

    func socketReadable() {
        guard pool?.discard(self) == true else {
            // Taken by an exchange elsewhere (its move stops the watch), or dropped already.
            loop.deregister(socket, ifHandler: self)
            return
        }
        close()
    }

    private func dropIfStillIdle() {
        guard pool?.discard(self) == true else { return }
        close()
    }

    /// Registered for reading only.
    func socketWritable() {}
}
