import Locking

/// The OpenSSL context (`SSL_CTX`) for one client `TLSConfiguration`: trust store, versions,
/// verification and ALPN, set up once and shared by every connection made with it. Making one
/// loads the system's OpenSSL and reads the trust store, so take them from `shared(for:)`,
/// which keeps one per distinct configuration; making a connection (`TLSMachine`) is then cheap.
public final class TLSClientContext: @unchecked Sendable {
    // @unchecked: the SSL_CTX is configured in init and only read afterwards (SSL_new), which
    // OpenSSL allows from any number of threads at once.
    let api: OpenSSL
    let context: OpaquePointer
    /// The configuration the context was made for.
    public let configuration: TLSConfiguration
    /// The ALPN protocols offered, in order of preference.
    public let applicationProtocols: [String]

    /// A new context for `configuration`, offering `applicationProtocols` (none: no ALPN).
    ///
    /// - Throws: `.unavailable` when no OpenSSL loads, `.invalidConfiguration` when the trust
    ///   roots cannot be read or a protocol name is invalid.
    public init(configuration: TLSConfiguration = TLSConfiguration(), applicationProtocols: [String] = ["http/1.1"]) throws(TLSFailure) {
        let api = try OpenSSL.loaded()
        let alpn = try ContextBuilder.alpnWireFormat(applicationProtocols)
        context = try ContextBuilder.make(api, method: api.TLS_client_method(), minimum: configuration.minimumVersion, maximum: nil) { context throws(TLSFailure) in
            let mode = configuration.certificateVerification == .full ? OpenSSLConstants.verifyPeer : OpenSSLConstants.verifyNone
            api.SSL_CTX_set_verify(context, mode, nil)
            api.SSL_CTX_set_cert_verify_callback(context, CommonNameRule.verifyCertificate, nil)
            try Self.loadTrustRoots(configuration.trustRoots, into: context, api)
            if !alpn.isEmpty {
                guard api.SSL_CTX_set_alpn_protos(context, alpn, UInt32(alpn.count)) == 0 else {
                    throw .invalidConfiguration(.rejected(api.takeErrorOrUnknown()))
                }
            }
        }
        self.api = api
        self.configuration = configuration
        self.applicationProtocols = applicationProtocols
    }

    deinit {
        api.SSL_CTX_free(context)
    }

    /// The shared context for `configuration` and `applicationProtocols`, made on first use.
    /// A context keeps what it read when it was made: a trust file or `SSL_CERT_FILE` changed
    /// later is not read again.
    public static func shared(for configuration: TLSConfiguration = TLSConfiguration(),
                              applicationProtocols: [String] = ["http/1.1"]) throws(TLSFailure) -> TLSClientContext {
        let key = CacheKey(configuration: configuration, applicationProtocols: applicationProtocols)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        // Made outside the lock (reading a trust store takes milliseconds); the first one stored wins.
        let made = try TLSClientContext(configuration: configuration, applicationProtocols: applicationProtocols)
        return cache.withLock { contexts in
            if let earlier = contexts[key] { return earlier }
            contexts[key] = made
            return made
        }
    }

    private struct CacheKey: Hashable {
        let configuration: TLSConfiguration
        let applicationProtocols: [String]
    }

    private static let cache = Lock<[CacheKey: TLSClientContext]>([:])

    /// The system's default locations (which honour `SSL_CERT_FILE` and `SSL_CERT_DIR`), or
    /// exactly the PEM's certificates.
    private static func loadTrustRoots(_ roots: TLSConfiguration.TrustRoots, into context: OpaquePointer, _ api: OpenSSL) throws(TLSFailure) {
        let pem: PEMText
        switch roots {
        case .system:
            guard api.SSL_CTX_set_default_verify_paths(context) == 1 else { throw .invalidConfiguration(.rejected(api.takeErrorOrUnknown())) }
            api.ERR_clear_error()
            return
        case .pemFile(let path):
            pem = try PEMText(file: path)
        case .pem(let text):
            pem = PEMText(text: text)
        }
        let store = api.SSL_CTX_get_cert_store(context)
        try pem.withCertificates(api) { certificates throws(TLSFailure) in
            for certificate in certificates {
                guard api.X509_STORE_add_cert(store, certificate) == 1 else { throw .invalidConfiguration(.rejected(api.takeErrorOrUnknown())) }
            }
        }
    }
}
