import EventLoopIO
import HTTPWire
import SystemTLS

/// Securing: whether TLS can be had at all, and the TLS records of every read on a secure
/// connection (the pool's opener ran its handshake; the channel pumps the records).
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

    /// Performs what the channel's TLS made of bytes (its records queued by the channel), in
    /// order: plaintext to the parser, the handshake's end, a failure; then the peer's end.
    func perform(_ steps: [ChannelTLS.Step]) {
        for step in steps {
            switch step {
            case .send:
                break  // queued by the channel
            case .deliver(let plaintext):
                received(plaintext)
                guard machine.readsConnection else { return }
            case .handshakeCompleted:
                break  // the opener secured the connection; a renegotiation's end changes nothing
            case .failed(let failure):
                // The alert goes out as far as the socket takes it now.
                _ = connection?.channel.flush()
                run(machine.tlsFailed(.tls(failure)))
                return
            }
        }
        if let end = connection?.channel.tls?.takeEnd() {
            // Without `close_notify` a body delimited by the close is cut (RFC 9112 §9.8); the
            // parser decides whether the response is whole.
            return endOfStream(end == .clean ? .complete : .incomplete)
        }
        if connection?.channel.hasPendingWrites == true { writeMore() }
    }

    /// Keeps the session of a secure connection for the host's next new connection, and that of
    /// TLS to an HTTPS proxy where `ConnectionOpener` looks for it (`proxySessionKey`, else the
    /// key of a connection forwarded through the proxy), once per connection (in TLS 1.3 it
    /// arrives with the first answer, so it is read once that is in).
    func rememberTLSSession() {
        guard let connection, !connection.sessionKept, let key = machine.target?.key,
              let tls = connection.channel.tls, let session = tls.machine.session else { return }
        connection.sessionKept = true
        guard key.secure else {
            // Plain `http` over TLS: the one TLS is the proxy's, forwarded through or tunnelled.
            return pool.remember(session, for: key.proxySessionKey ?? key)
        }
        pool.remember(session, for: key)
        if let proxyKey = key.proxySessionKey, let carried = tls.carrier?.session {
            pool.remember(carried, for: proxyKey)
        }
    }
}
