import EventLoopIO

/// An idle kept-alive connection in the pool, still watched for reading by the event loop it
/// last ran on (its home).
///
/// While it is idle, a readable socket means the server closed it (or sent bytes nobody asked
/// for): the pool lets go of it at once instead of finding out on the next request. An exchange
/// that takes it from the caller's thread and writes its request there (`SocketExchange.start`)
/// claims it: the answer then reaches the exchange through this registration, so the loop is not
/// woken just to start watching the socket. Whoever else takes it registers its own handler in
/// its place; a watcher that finds its socket taken by someone else only deregisters itself.
final class ParkedConnection: EventLoopHandler, @unchecked Sendable {
    // @unchecked: `state` and `sawEventWhileTaken` are read and written only under the pool's lock.
    enum State {
        /// In the pool's idle list.
        case idle
        /// Taken by an exchange; `owner` set once the exchange has claimed the registration.
        case taken(owner: SocketExchange?)
        /// Closed by the pool.
        case closed
    }

    let socket: TCPSocket
    let loop: EventLoop
    let key: ConnectionPoolKey
    private weak var pool: ConnectionPool?
    var state = State.idle
    /// The socket turned readable after it was taken, before its taker claimed it; the watcher
    /// then deregistered itself, and the claim fails.
    var sawEventWhileTaken = false

    init(socket: TCPSocket, loop: EventLoop, key: ConnectionPoolKey, pool: ConnectionPool) {
        self.socket = socket
        self.loop = loop
        self.key = key
        self.pool = pool
    }

    /// What the watcher does when its socket turns readable (decided under the pool's lock).
    enum Readable {
        /// Pass the event to the exchange that claimed the connection.
        case forward(SocketExchange)
        /// The pool dropped the idle connection: stop watching it and close it.
        case discard
        /// The socket is someone else's (or closed): stop watching it, touch nothing else.
        case deregister
    }

    func socketReadable() {
        switch pool?.parkedConnectionReadable(self) ?? .deregister {
        case .forward(let exchange):
            exchange.claimedConnectionReadable()
        case .discard:
            loop.deregister(socket, ifHandler: self)
            socket.close()
        case .deregister:
            loop.deregister(socket, ifHandler: self)
        }
    }

    /// Registered for reading only.
    func socketWritable() {}
}
