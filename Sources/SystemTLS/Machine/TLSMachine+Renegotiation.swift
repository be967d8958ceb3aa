extension TLSMachine {
    /// Makes this established TLS 1.2 server ask the client to renegotiate (a HelloRequest in
    /// the returned `.write`), as a server that allows renegotiation would: for tests that a
    /// client refuses. The machines never renegotiate otherwise.
    func requestRenegotiationForTesting() -> [Action] {
        guard role == .server, state == .established else { return [] }
        _ = api.SSL_clear_options(ssl, OpenSSLConstants.opNoRenegotiation)
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
}
