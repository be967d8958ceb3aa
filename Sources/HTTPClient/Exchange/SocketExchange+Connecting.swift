import EventLoopIO

/// Taking a connection: the connect timer (the wait for a lease, a new connection's handshake)
/// and putting the leased connection to use. Opening connections is the pool's
/// (`ConnectionOpener`).
extension SocketExchange {
    func armConnectTimer() {
        cancelTimer(&connectTimer)
        connectTimer = loop.schedule(in: configuration.connectTimeout) { [self] in
            connectTimer = nil
            run(machine.connectTimerFired())
        }
    }

    /// Takes the leased (or just secured) connection to send on: registers it with the exchange
    /// as its handler, watched for reading (an early answer, or the server closing it) and, once a
    /// write fills it, for room to write. A pooled connection parked on this loop is watched for
    /// reading already: only its handler changes. Bytes the connection holds for the socket are
    /// written before the request.
    func useConnection() {
        cancelTimer(&connectTimer)
        guard let connection else { return }
        // TLS records its parked watcher answered with and the socket has not taken yet go first.
        let pending = connection.takePendingWrites()
        if !pending.isEmpty { queueOnWire(pending) }
        loop.register(connection.socket, readable: true, writable: false, handler: self)
        touch()
        armIdleTimer()
    }
}
