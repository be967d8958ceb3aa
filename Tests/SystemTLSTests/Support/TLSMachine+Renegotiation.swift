@testable import SystemTLS

/// Renegotiation for tests, reached through the machine's internals (`@testable`): the product
/// never renegotiates and has no hook for it.
extension TLSMachine {
    /// Makes this established TLS 1.2 server ask the client to renegotiate (a HelloRequest in
    /// the returned `.write`), as a server that allows renegotiation would.
    func requestRenegotiationForTesting() -> [Action] {
        guard role == .server, state == .established else { return [] }
        allowRenegotiationForTesting()
        api.ERR_clear_error()
        guard api.SSL_renegotiate(ssl) == 1 else {
            api.ERR_clear_error()
            return []
        }
        _ = api.SSL_do_handshake(ssl)  // writes the HelloRequest, then waits for the client's hello
        api.ERR_clear_error()
        var actions: [Action] = []
        flushWrites(into: &actions)
        return actions
    }

    /// Lets this machine take part in a renegotiation (a client then answers a HelloRequest with
    /// a new handshake instead of refusing it).
    func allowRenegotiationForTesting() {
        _ = api.SSL_clear_options(ssl, OpenSSLConstants.opNoRenegotiation)
    }
}
