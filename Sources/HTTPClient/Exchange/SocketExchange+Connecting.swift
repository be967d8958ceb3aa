import Foundation
import EventLoopIO

/// Connecting: performing `ConnectAttempts`' steps (the lookup off the loop, one socket per
/// attempt watched by its own `AttemptWatcher`) within the connect timeout.
extension SocketExchange {
    func armConnectTimer() {
        cancelTimer(&connectTimer)
        connectTimer = loop.schedule(in: configuration.connectTimeout) { [self] in
            connectTimer = nil
            run(machine.connectTimerFired())
        }
    }

    /// Arms the connect timer and starts the attempts with the host read as a literal (or not).
    func beginConnect() {
        guard let key = machine.target?.key else { return }
        armConnectTimer()
        run(machine.beginConnect(literal: resolver.literal(key.host, key.port)))
    }

    func perform(_ step: ExchangeMachine.ConnectStep) {
        switch step {
        case .resolve:
            guard let key = machine.target?.key else { return }
            let (loop, lookUp) = (self.loop, resolver.lookUp)
            DispatchQueue.global().async { [self] in
                let result = Result { () throws(SocketError) -> [SocketAddress] in try lookUp(key.host, key.port) }
                loop.execute { self.run(self.machine.resolved(result, cancelled: self.isFinished)) }
            }
        case .start(let address, let index):
            do throws(SocketError) {
                let (opened, inProgress) = try TCPSocket.startConnect(to: address)
                attemptSockets[index] = opened
                run(machine.connectStarted(index: index, inProgress: inProgress))
            } catch {
                run(machine.connectStartFailed(index: index, errno: error.systemErrno))
            }
        case .await(let index, let staggerNext):
            if let attempt = attemptSockets[index] {
                loop.register(attempt, readable: false, writable: true, handler: AttemptWatcher(exchange: self, index: index))
            }
            if staggerNext {
                cancelTimer(&staggerTimer)
                staggerTimer = loop.schedule(in: ConnectAttempts.staggerDelay) { [self] in
                    staggerTimer = nil
                    run(machine.staggerTimerFired())
                }
            }
        }
    }

    /// Attempt `index`'s connect finished (its socket turned writable): a failed one is closed
    /// before the machine hears of it.
    func attemptFinished(_ index: Int) {
        loop.assertInLoop()
        guard let attempt = attemptSockets[index] else { return }
        let number = attempt.connectionError()
        if number != 0 {
            attemptSockets[index] = nil
            loop.deregister(attempt)
            attempt.close()
        }
        run(machine.connectFinished(index: index, errno: number))
    }

    /// Takes the connection to send on: the attempt `index`'s socket (the other attempts are
    /// closed, the connect timers cancelled), or the leased one already in `socket`; registers it
    /// with the exchange as its handler, watched for reading (an early answer, or the server
    /// closing it) and, once a write fills it, for room to write. A pooled connection parked on
    /// this loop is watched for reading already: only its handler changes.
    func useConnection(attempt index: Int?) {
        if let index, let won = attemptSockets.removeValue(forKey: index) {
            connection = Connection(socket: won)
            closeAttempts(keeping: nil)
        }
        cancelTimer(&connectTimer)
        cancelTimer(&staggerTimer)
        guard let socket else { return }
        loop.register(socket, readable: true, writable: false, handler: self)
        touch()
        armIdleTimer()
    }

    /// Closes every attempt's socket.
    func closeAttempts(keeping: Int?) {
        for (index, attempt) in attemptSockets where index != keeping {
            loop.deregister(attempt)
            attempt.close()
        }
        attemptSockets = attemptSockets.filter { $0.key == keeping }
    }
}

/// Watches one connect attempt's socket for the kernel's outcome, so that the exchange knows
/// which attempt finished.
final class AttemptWatcher: EventLoopHandler {
    private let exchange: SocketExchange
    private let index: Int

    init(exchange: SocketExchange, index: Int) {
        self.exchange = exchange
        self.index = index
    }

    func socketWritable() {
        exchange.attemptFinished(index)
    }

    /// Registered for writing only.
    func socketReadable() {}
}
