import EventLoopIO

/// Taking a connection: the connect timer (the wait for a lease) and putting the leased
/// connection to use. Opening and securing connections is the pool's (`ConnectionOpener`,
/// `ConnectionHandshake`).
extension SocketExchange {
    func armConnectTimer() {
        cancelTimer(&connectTimer)
        connectTimer = loop.schedule(in: configuration.connectTimeout) { [self] in
            connectTimer = nil
            run(machine.connectTimerFired())
        }
    }

    /// Takes the leased connection's channel over to send on, watched for
    /// reading (an early answer, or the server closing it) and, while bytes are queued, for room
    /// to write. A pooled connection parked on this loop is watched for reading already: only its
    /// owner changes. Bytes already queued on the channel (TLS records its parked watcher
    /// answered with) go out before the request.
    func useConnection() {
        cancelTimer(&connectTimer)
        guard let connection else { return }
        connection.useFor(self)
        connection.channel.setReading(true)
        touch()
        armIdleTimer()
    }
}
