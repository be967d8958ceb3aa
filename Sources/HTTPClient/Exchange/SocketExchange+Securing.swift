import EventLoopIO
import HTTPWire
import SystemTLS

/// Securing: TLS on a fresh connection of an `https` request (the connect timer bounds the
/// handshake), and the TLS records of every read and write on a secure connection.
extension SocketExchange {
    /// Whether `target` needs TLS that cannot be had: the request then fails before connecting.
    static func tlsUnavailable(for target: SocketRequestTarget) -> TLSUnavailable? {
        guard target.key.secure else { return nil }
        do throws(TLSFailure) {
            try TLSLibrary.load()
            return nil
        } catch {
            guard case .unavailable(let unavailable) = error else { return nil }
            return unavailable
        }
    }

    /// Starts TLS on the new connection leased (the connect timer bounds the handshake): the
    /// ClientHello goes out.
    func secure() {
        guard let connection, let key = machine.target?.key else { return }
        armConnectTimer()
        loop.register(connection.socket, readable: true, writable: false, handler: self)
        do throws(ExchangeFailure) {
            let tls = try makeTLS(for: key)
            connection.tls = tls
            perform(tls.start())
        } catch {
            run(machine.tlsFailed(error))
        }
    }

    /// A client machine for `key`'s host, with the client's verification settings, offering the
    /// host's last session.
    private func makeTLS(for key: ConnectionPoolKey) throws(ExchangeFailure) -> TLSMachine {
        do throws(TLSFailure) {
            let context = try TLSClientContext.shared(for: configuration.tls)
            return try TLSMachine(client: context, host: key.host, session: pool.session(for: key))
        } catch {
            throw ExchangeFailure(error)
        }
    }

    /// Performs the TLS machine's actions, in order: ciphertext to the socket, plaintext to the
    /// parser, the handshake's end, the peer's end, a failure.
    func perform(_ actions: [TLSMachine.Action]) {
        for action in actions {
            switch action {
            case .write(let bytes):
                queueOnWire(bytes)
            case .deliver(let plaintext):
                received(plaintext)
                guard machine.readsConnection else { return }
            case .handshakeCompleted(let handshake):
                timings.secured = .now
                timings.tls = handshake
                connection?.handshake = handshake
                run(machine.handshakeCompleted())
            case .closed(let closure):
                // Without `close_notify` a body delimited by the close is cut (RFC 9112 §9.8); the
                // parser decides whether the response is whole.
                endOfStream(closure == .clean ? .complete : .incomplete)
                return
            case .failed(let failure):
                writeMore()
                run(machine.tlsFailed(.tls(failure)))
                return
            }
        }
        if wireOffset < wire.count { writeMore() }
    }

    /// Queues TLS records for the socket (written by `writeMore`).
    func queueOnWire(_ bytes: [UInt8]) {
        if wire.isEmpty {
            wire = bytes
            wireOffset = 0
        } else {
            wire += bytes
        }
    }

    /// Keeps the session of a secure connection for the host's next new connection, once per
    /// connection (in TLS 1.3 it arrives with the first answer, so it is read once that is in).
    func rememberTLSSession() {
        guard let connection, !connection.sessionKept, let key = machine.target?.key,
              let session = connection.tls?.session else { return }
        connection.sessionKept = true
        pool.remember(session, for: key)
    }
}
