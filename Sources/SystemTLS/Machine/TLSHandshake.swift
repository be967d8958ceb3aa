/// What a completed handshake agreed on.
public struct TLSHandshake: Sendable, Hashable {
    /// The protocol version negotiated.
    public let version: TLSVersion
    /// The ALPN protocol selected (`http/1.1`), or `nil` when the server selected none.
    public let applicationProtocol: String?
    /// Whether an earlier session was resumed (an abbreviated handshake).
    public let resumedSession: Bool
    /// The server name the client sent (SNI): on a server, what the client asked for; on a
    /// client, the host, unless it is an IP address (never sent). `nil` when none was sent.
    public let serverName: String?
    /// The cipher suite negotiated, by OpenSSL's name (`TLS_AES_256_GCM_SHA384`,
    /// `ECDHE-RSA-AES128-GCM-SHA256`).
    public let cipher: String?

    /// A handshake's outcome as given.
    public init(version: TLSVersion, applicationProtocol: String?, resumedSession: Bool, serverName: String?, cipher: String? = nil) {
        self.version = version
        self.applicationProtocol = applicationProtocol
        self.resumedSession = resumedSession
        self.serverName = serverName
        self.cipher = cipher
    }
}
