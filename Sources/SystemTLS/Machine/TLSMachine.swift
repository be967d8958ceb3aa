import Foundation

/// One TLS connection as a machine on bytes: OpenSSL's `SSL` between two memory buffers, fed
/// the peer's ciphertext and the caller's plaintext, answering with actions (bytes to write to
/// the peer, plaintext to deliver, the handshake's outcome, the end). It never touches a socket.
///
/// Events in, actions out, performed in order:
/// ```swift
/// let machine = try TLSMachine(client: TLSClientContext.shared(), host: "example.com", session: pool.session(for: key))
/// perform(machine.start())                       // .write(ClientHello)
/// perform(machine.send(plaintext: request))      // queued until the handshake completes
/// // socket readable:        perform(machine.receive(ciphertext: bytesRead))
/// // socket end of stream:   perform(machine.receiveEndOfStream())
/// // done with it:           perform(machine.close())   // .write(close_notify)
/// ```
/// `.write` bytes go to the socket in order; `.deliver` plaintext to the protocol above;
/// `.handshakeCompleted` tells the negotiated version and ALPN; `.closed(.clean)` is the peer's
/// `close_notify`, `.closed(.truncated)` the stream ending without one; `.failed` is final.
/// After `.closed` or `.failed` every call returns no action.
///
/// Not thread-safe: one thread (the connection's event loop) drives a machine. It frees its
/// OpenSSL objects when released. A `.deliver` slice shares the machine's read buffer: keep it
/// past the next call and that call copies the buffer once.
public final class TLSMachine {
    /// Which end of the connection the machine is.
    public enum Role: Sendable, Hashable {
        case client, server
    }

    /// Where the connection is.
    public enum State: Sendable, Hashable {
        /// Made; nothing sent or received yet.
        case idle
        /// The handshake is under way.
        case handshaking
        /// Application data flows both ways.
        case established
        /// `close()` sent our `close_notify`; the peer's data is still delivered until its own.
        case closing
        /// The connection ended (a `close_notify`, the end of the stream, or `close()` before the handshake completed).
        case closed
        /// The connection failed; `.failed` said why.
        case failed
    }

    /// What the driver does, in order.
    public enum Action: Sendable, Equatable {
        /// Write these bytes to the peer (after every earlier `.write`).
        case write([UInt8])
        /// The peer sent this plaintext.
        case deliver(ArraySlice<UInt8>)
        /// The handshake completed; plaintext queued by `send` follows in a `.write`.
        case handshakeCompleted(TLSHandshake)
        /// The peer's side ended: with its `close_notify` (`.clean`), or the stream ended
        /// without one (`.truncated`: data may be missing, as for a lost connection).
        case closed(Closure)
        /// The connection failed; a `.write` before it carries the alert for the peer.
        case failed(TLSFailure)
    }

    /// How the peer's side ended.
    public enum Closure: Sendable, Hashable {
        /// The peer sent `close_notify`: everything it sent arrived.
        case clean
        /// The stream ended without `close_notify`.
        case truncated
    }

    /// Which end of the connection this is.
    public let role: Role
    /// Where the connection is.
    public internal(set) var state = State.idle

    let api: OpenSSL
    let ssl: OpaquePointer
    /// The peer's ciphertext, read by OpenSSL.
    let incoming: OpaquePointer
    /// Ciphertext for the peer, written by OpenSSL.
    let outgoing: OpaquePointer
    /// The client context (for sessions) or the server context: kept alive with the machine.
    private let clientContext: TLSClientContext?
    private let serverContext: TLSServerContext?
    /// The host a client was made for.
    let host: String?
    /// Plaintext handed to `send` that OpenSSL has not taken yet: before the handshake completed,
    /// or while `SSL_write` wants the peer's bytes first (a handshake after the first under way:
    /// a renegotiation, a post-handshake message OpenSSL has read only in part). Written, in
    /// order, once the handshake completes or the next ciphertext arrives.
    var queued: [UInt8] = []
    /// Where `SSL_read` puts plaintext; reused from read to read.
    var readBuffer: [UInt8] = []
    /// Whether the handshake completed (sessions are taken only then).
    var handshakeCompleted = false

    /// A read buffer holds one full record at least, and grows up to `largestReadBuffer`.
    static let firstReadBufferSize = 16_384
    /// Past this much plaintext in one call, delivery goes out in pieces of this size.
    static let largestReadBuffer = 262_144

    /// A client connection to `host` (a DNS name or an IP literal, as in the URL), offering
    /// `session` when it came from `context` for the same host.
    ///
    /// The host is verified against the certificate (when `context` verifies) and sent as SNI
    /// unless it is an IP address.
    /// - Throws: `.invalidHostName` for a host OpenSSL cannot check, `.internalError` when
    ///   OpenSSL cannot allocate the connection.
    public convenience init(client context: TLSClientContext, host: String, session: TLSSession? = nil) throws(TLSFailure) {
        let peer = try PeerName(host: host)
        try self.init(api: context.api, context: context.context, role: .client, client: context, server: nil, host: host)
        if context.configuration.certificateVerification == .full {
            let parameters = api.SSL_get0_param(ssl)
            api.X509_VERIFY_PARAM_set_hostflags(parameters, OpenSSLConstants.checkFlagNoPartialWildcards)
            let accepted = switch peer {
            case .ip(let address): api.X509_VERIFY_PARAM_set1_ip_asc(parameters, address)
            case .dns(let name): api.X509_VERIFY_PARAM_set1_host(parameters, name, name.utf8.count)
            }
            guard accepted == 1 else {
                api.ERR_clear_error()
                throw .invalidHostName(host)
            }
        }
        if case .dns(let name) = peer {
            let set = name.withCString { api.SSL_ctrl(ssl, OpenSSLConstants.ctrlSetTLSExtHostName, OpenSSLConstants.tlsExtNameTypeHostName, UnsafeMutableRawPointer(mutating: $0)) }
            guard set == 1 else {
                api.ERR_clear_error()
                throw .invalidHostName(host)
            }
        }
        if let session, session.context === context, session.host == host {
            // A session OpenSSL refuses (another protocol's) just means a full handshake.
            if api.SSL_set_session(ssl, session.pointer) != 1 { api.ERR_clear_error() }
        }
    }

    /// A server connection, accepting a client's handshake.
    /// - Throws: `.internalError` when OpenSSL cannot allocate the connection.
    public convenience init(server context: TLSServerContext) throws(TLSFailure) {
        try self.init(api: context.api, context: context.context, role: .server, client: nil, server: context, host: nil)
    }

    private init(api: OpenSSL, context: OpaquePointer, role: Role, client: TLSClientContext?, server: TLSServerContext?, host: String?) throws(TLSFailure) {
        api.ERR_clear_error()
        guard let ssl = api.SSL_new(context) else { throw .internalError(api.takeErrorOrUnknown()) }
        guard let incoming = api.BIO_new(api.BIO_s_mem()) else {
            api.SSL_free(ssl)
            throw .internalError(api.takeErrorOrUnknown())
        }
        guard let outgoing = api.BIO_new(api.BIO_s_mem()) else {
            _ = api.BIO_free(incoming)
            api.SSL_free(ssl)
            throw .internalError(api.takeErrorOrUnknown())
        }
        // An empty buffer means "no bytes yet, try again", not the end of the stream.
        _ = api.BIO_ctrl(incoming, OpenSSLConstants.bioSetMemEOFReturn, -1, nil)
        _ = api.BIO_ctrl(outgoing, OpenSSLConstants.bioSetMemEOFReturn, -1, nil)
        api.SSL_set_bio(ssl, incoming, outgoing)  // the SSL owns both from here
        switch role {
        case .client: api.SSL_set_connect_state(ssl)
        case .server: api.SSL_set_accept_state(ssl)
        }
        self.api = api
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        self.role = role
        self.clientContext = client
        self.serverContext = server
        self.host = host
    }

    deinit {
        api.SSL_free(ssl)
    }

    // MARK: Events

    /// Starts the handshake: a client's first `.write` is its ClientHello; a server waits for
    /// the client's (it needs no `start()`).
    public func start() -> [Action] {
        switch state {
        case .idle:
            state = .handshaking
            var actions: [Action] = []
            advanceHandshake(into: &actions)
            return actions
        case .handshaking, .established, .closing:
            // Started already (or a server the client's bytes started): the handshake goes on with them.
            return []
        case .closed, .failed:
            // Ended before it was started (`close()`, a failure): nothing to send.
            return []
        }
    }

    /// The peer's bytes, as read from the socket, split anywhere (`[UInt8]`, a slice of the
    /// read buffer, `Data`, an `UnsafeRawBufferPointer`).
    public func receive(ciphertext: some ContiguousBytes) -> [Action] {
        ciphertext.withUnsafeBytes { receive(bytes: $0) }
    }

    private func receive(bytes ciphertext: UnsafeRawBufferPointer) -> [Action] {
        switch state {
        case .closed, .failed: return []
        case .idle: state = .handshaking
        case .handshaking, .established, .closing: break
        }
        var actions: [Action] = []
        if let base = ciphertext.baseAddress, ciphertext.count > 0 {
            var written = 0
            guard api.BIO_write_ex(incoming, base, ciphertext.count, &written) == 1, written == ciphertext.count else {
                fail(.internalError(api.takeErrorOrUnknown()), into: &actions)
                return actions
            }
        }
        if state == .handshaking { advanceHandshake(into: &actions) }
        if state == .established || state == .closing { readPlaintext(into: &actions) }
        // A write that wanted these bytes goes on (after the plaintext they brought).
        if state == .established { writeQueued(into: &actions) }
        return actions
    }

    /// The socket's end of stream: `.closed(.truncated)` unless the peer's `close_notify` came first.
    public func receiveEndOfStream() -> [Action] {
        switch state {
        case .closed, .failed:
            return []
        case .idle, .handshaking, .established, .closing:
            state = .closed
            queued = []
            return [.closed(.truncated)]
        }
    }

    /// Plaintext for the peer: encrypted into a `.write` now, or queued until the handshake
    /// completes (or, when OpenSSL must read the peer's bytes first, until the next `receive`).
    /// Ignored once `close()` ran or the connection ended.
    public func send(plaintext: some ContiguousBytes) -> [Action] {
        plaintext.withUnsafeBytes { send(bytes: $0) }
    }

    private func send(bytes plaintext: UnsafeRawBufferPointer) -> [Action] {
        switch state {
        case .idle, .handshaking:
            queued.append(contentsOf: plaintext)
            return []
        case .established:
            var actions: [Action] = []
            if queued.isEmpty {
                write(plaintext, into: &actions)
            } else {
                // Behind plaintext still waiting for the peer's bytes: in order, after it.
                queued.append(contentsOf: plaintext)
                writeQueued(into: &actions)
            }
            return actions
        case .closing, .closed, .failed:
            return []
        }
    }

    /// Ends our side: a `.write` of `close_notify` once the handshake completed (then the
    /// peer's remaining data and its `close_notify` still arrive; plaintext still queued is
    /// dropped); before that, nothing is sent and the machine is closed.
    public func close() -> [Action] {
        switch state {
        case .established:
            queued = []
            api.ERR_clear_error()
            _ = api.SSL_shutdown(ssl)
            api.ERR_clear_error()
            var actions: [Action] = []
            flushWrites(into: &actions)
            state = .closing
            return actions
        case .idle, .handshaking:
            state = .closed
            queued = []
            return []
        case .closing, .closed, .failed:
            return []
        }
    }

    /// The session to offer on a later connection to the same host and port, once the
    /// handshake completed and the server made it resumable (in TLS 1.3 a ticket arrives
    /// after the handshake, with the first data); `nil` before, on a server, or when the server
    /// gives none.
    public var session: TLSSession? {
        guard role == .client, handshakeCompleted, let clientContext, let host, let pointer = api.SSL_get1_session(ssl) else { return nil }
        guard api.SSL_SESSION_is_resumable(pointer) == 1 else {
            api.SSL_SESSION_free(pointer)
            return nil
        }
        return TLSSession(api: api, pointer: pointer, host: host, context: clientContext)
    }
}
