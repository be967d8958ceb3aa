/// A client's TLS session, taken from a connection after its handshake (`TLSMachine.session`)
/// and offered by a later connection to the same host and port so that its handshake is
/// abbreviated (no certificate sent or verified again).
///
/// A session is only offered by a machine of the context it came from and for the host it was
/// made with; otherwise it is ignored and a full handshake runs.
public final class TLSSession: @unchecked Sendable {
    // @unchecked: OpenSSL counts an SSL_SESSION's references atomically and copies a session
    // before changing one it may share (a renewed ticket), so connections on any thread may
    // offer the same session at once (as OpenSSL's own session cache does).
    let api: OpenSSL
    let pointer: OpaquePointer
    /// The host the session was made with (as given to `TLSMachine(client:host:session:)`).
    public let host: String
    /// The context the session was made in.
    let context: TLSClientContext

    /// Takes over one reference to `pointer`.
    init(api: OpenSSL, pointer: OpaquePointer, host: String, context: TLSClientContext) {
        self.api = api
        self.pointer = pointer
        self.host = host
        self.context = context
    }

    deinit {
        api.SSL_SESSION_free(pointer)
    }
}
