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
    /// reading already: only its handler changes.
    func useConnection() {
        cancelTimer(&connectTimer)
        guard let socket else { return }
        loop.register(socket, readable: true, writable: false, handler: self)
        touch()
        armIdleTimer()
    }
}
