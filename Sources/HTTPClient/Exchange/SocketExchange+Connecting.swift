import Foundation
import EventLoopIO

/// Connecting: performing `ConnectAttempts`' actions (the lookup off the loop, one socket per
/// address) within the connect timeout.
extension SocketExchange {
    func connect() {
        guard let key = target?.key else { return }
        machine.connecting()
        connectTimer = loop.schedule(at: .now + configuration.connectTimeout) { [self] in
            connectTimer = nil
            if let action = attempts.timerFired() { perform(action) }
        }
        attempts = ConnectAttempts()
        // A literal is read inline; a name goes to `getaddrinfo`, which may block, off the loop.
        perform(attempts.begin(literal: try? SocketAddress.resolve(host: key.host, port: key.port, numericOnly: true)))
    }

    func perform(_ action: ConnectAttempts.Action) {
        guard let key = target?.key else { return }
        switch action {
        case .resolve:
            let loop = self.loop
            DispatchQueue.global().async { [self] in
                let result = Result { () throws(SocketError) -> [SocketAddress] in
                    try SocketAddress.resolve(host: key.host, port: key.port)
                }
                loop.execute { self.resolved(result) }
            }
        case .startConnect(let address):
            if let failed = socket {
                loop.deregister(failed)
                failed.close()
                socket = nil
            }
            do throws(SocketError) {
                let (opened, inProgress) = try TCPSocket.startConnect(to: address)
                socket = opened
                if let next = attempts.started(inProgress: inProgress) { perform(next) }
            } catch {
                if let next = attempts.startFailed(errno: error.systemErrno) { perform(next) }
            }
        case .awaitConnect:
            if let socket { loop.register(socket, readable: false, writable: true, handler: self) }
        case .connected:
            connected()
        case .fail(.cannotFindHost(let code)):
            fail(.cannotFindHost(host: key.host, code: code))
        case .fail(.cannotConnect(let number)):
            fail(.cannotConnect(host: key.host, port: Int(key.port), errno: number))
        case .fail(.timedOut):
            perform(ExchangeStateMachine.Action.fail(.timedOut(.connect)))
        }
    }

    func resolved(_ result: Result<[SocketAddress], SocketError>) {
        if let action = attempts.resolved(result, cancelled: isFinished) { perform(action) }
    }

    func connectionFinished(_ socket: TCPSocket) {
        if let action = attempts.connectFinished(errno: socket.connectionError()) { perform(action) }
    }

    func connected() {
        connectTimer?.cancel()
        connectTimer = nil
        guard machine.connected() == .send else { return }
        sendRequest()
    }
}
