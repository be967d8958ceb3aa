import Foundation
import SocketIO

/// Connecting: resolving the host off the loop and trying each address within the connect timeout.
extension SocketExchange {
    func connect() {
        guard let key = target?.key else { return }
        machine.connecting()
        connectTimer = loop.schedule(at: .now + configuration.connectTimeout) { [self] in
            connectTimer = nil
            if let action = machine.timerFired(.connect) { perform(action) }
        }
        do throws(SocketError) {
            addresses = try SocketAddress.resolve(host: key.host, port: key.port, numericOnly: true)
            addressIndex = 0
            tryNextAddress()
        } catch {
            // A name, not a literal: `getaddrinfo` may block, so it runs off the loop.
            let loop = self.loop
            DispatchQueue.global().async { [self] in
                let result = Result { () throws(SocketError) -> [SocketAddress] in
                    try SocketAddress.resolve(host: key.host, port: key.port)
                }
                loop.execute { self.resolved(result) }
            }
        }
    }

    func resolved(_ result: Result<[SocketAddress], SocketError>) {
        guard phase == .connecting, !isFinished, let key = target?.key else { return }
        switch result {
        case .success(let list):
            addresses = list
            addressIndex = 0
            tryNextAddress()
        case .failure(.addressResolution(_, let code)):
            fail(.cannotFindHost(host: key.host, code: code))
        case .failure(let error):
            fail(.cannotConnect(host: key.host, port: Int(key.port), errno: error.systemErrno ?? EHOSTUNREACH))
        }
    }

    func tryNextAddress() {
        while addressIndex < addresses.count {
            do throws(SocketError) {
                let (opened, inProgress) = try TCPSocket.startConnect(to: addresses[addressIndex])
                socket = opened
                if inProgress {
                    loop.register(opened, readable: false, writable: true, handler: self)
                } else {
                    connected()
                }
                return
            } catch {
                lastConnectErrno = error.systemErrno ?? lastConnectErrno
                addressIndex += 1
            }
        }
        guard let key = target?.key else { return }
        fail(.cannotConnect(host: key.host, port: Int(key.port), errno: lastConnectErrno))
    }

    func connectionFinished(_ socket: TCPSocket) {
        let number = socket.connectionError()
        guard number != 0 else { return connected() }
        loop.deregister(socket)
        socket.close()
        self.socket = nil
        lastConnectErrno = number
        addressIndex += 1
        tryNextAddress()
    }

    func connected() {
        if let connectTimer { loop.cancelTimer(connectTimer) }
        connectTimer = nil
        guard machine.connected() == .send else { return }
        sendRequest()
    }
}
