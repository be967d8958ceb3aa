/// The OpenSSL context (`SSL_CTX`) for one `TLSServerConfiguration`: the certificate chain and
/// key, versions and ALPN, set up once and shared by every connection the server accepts.
public final class TLSServerContext: @unchecked Sendable {
    // @unchecked: the SSL_CTX is configured in init and only read afterwards (SSL_new; its
    // session cache has its own lock), which OpenSSL allows from any number of threads at once.
    let api: OpenSSL
    let context: OpaquePointer
    /// The configuration the context was made for.
    public let configuration: TLSServerConfiguration
    /// The ALPN preferences the selection callback reads (kept alive with the context).
    private let protocols: ServerProtocols

    /// A context serving `configuration`.
    ///
    /// - Throws: `.unavailable` when no OpenSSL loads, `.invalidConfiguration` when the chain or
    ///   key cannot be read, do not match, or a version or protocol name is invalid.
    public init(configuration: TLSServerConfiguration) throws(TLSFailure) {
        let api = try OpenSSL.loaded()
        let wire = try ContextBuilder.alpnWireFormat(configuration.applicationProtocols)
        let protocols = ServerProtocols(preferred: configuration.applicationProtocols.map { Array($0.utf8) })
        let chain = try PEMText(configuration.certificateChain)
        let key = try PEMText(configuration.privateKey)
        context = try ContextBuilder.make(api, method: api.TLS_server_method(), minimum: configuration.minimumVersion,
                                          maximum: configuration.maximumVersion) { context throws(TLSFailure) in
            try Self.useChain(chain, key: key, in: context, api)
            if !wire.isEmpty {
                api.SSL_CTX_set_alpn_select_cb(context, selectApplicationProtocol, Unmanaged.passUnretained(protocols).toOpaque())
            }
        }
        self.api = api
        self.configuration = configuration
        self.protocols = protocols
    }

    deinit {
        api.SSL_CTX_free(context)
    }

    /// The chain's first certificate as the server's, the rest as its chain, and the key,
    /// which must belong to the first.
    private static func useChain(_ chain: PEMText, key: PEMText, in context: OpaquePointer, _ api: OpenSSL) throws(TLSFailure) {
        try chain.withCertificates(api) { certificates throws(TLSFailure) in
            guard api.SSL_CTX_use_certificate(context, certificates[0]) == 1 else { throw .invalidConfiguration(.rejected(api.takeErrorOrUnknown())) }
            for intermediate in certificates.dropFirst() {
                // SSL_CTX_add1_chain_cert: the context takes its own reference.
                guard api.SSL_CTX_ctrl(context, OpenSSLConstants.ctrlChainCert, 1, UnsafeMutableRawPointer(intermediate)) == 1 else {
                    throw .invalidConfiguration(.rejected(api.takeErrorOrUnknown()))
                }
            }
        }
        try key.withPrivateKey(api) { key throws(TLSFailure) in
            guard api.SSL_CTX_use_PrivateKey(context, key) == 1, api.SSL_CTX_check_private_key(context) == 1 else {
                api.ERR_clear_error()
                throw .invalidConfiguration(.privateKeyMismatch)
            }
        }
    }
}

/// The server's ALPN protocols in order of preference, for the selection callback.
final class ServerProtocols: Sendable {
    let preferred: [[UInt8]]

    init(preferred: [[UInt8]]) {
        self.preferred = preferred
    }

    /// Where in `offered` (ALPN's wire format) the most preferred protocol the client offers
    /// is, or `nil` when it offers none of them or the list is malformed.
    func select(from offered: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var entries: [Range<Int>] = []
        var index = 0
        while index < offered.count {
            let length = Int(offered[index])
            let start = index + 1
            guard length > 0, start + length <= offered.count else { return nil }
            entries.append(start..<start + length)
            index = start + length
        }
        for name in preferred {
            if let match = entries.first(where: { offered[$0].elementsEqual(name) }) { return match }
        }
        return nil
    }
}

/// OpenSSL's ALPN selection callback: the server's most preferred protocol among the client's,
/// or a fatal `no_application_protocol` alert when there is none (RFC 7301 section 3.2).
private let selectApplicationProtocol: OpenSSL.ALPNSelectCallback = { _, out, outLength, offered, offeredLength, argument in
    guard let out, let outLength, let offered, let argument else { return OpenSSLConstants.tlsExtErrAlertFatal }
    let protocols = Unmanaged<ServerProtocols>.fromOpaque(argument).takeUnretainedValue()
    let list = UnsafeBufferPointer(start: offered, count: Int(offeredLength))
    guard let match = protocols.select(from: list) else { return OpenSSLConstants.tlsExtErrAlertFatal }
    out.pointee = offered + match.lowerBound
    outLength.pointee = UInt8(match.count)
    return OpenSSLConstants.tlsExtErrOK
}
