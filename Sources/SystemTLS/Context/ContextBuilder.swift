/// Makes an `SSL_CTX` with the settings every context here shares: TLS 1.2 at least,
/// renegotiation and compression off. The context is freed if configuring it fails.
enum ContextBuilder {
    static func make(_ api: OpenSSL, method: OpaquePointer?, minimum: TLSVersion, maximum: TLSVersion?,
                     configure: (OpaquePointer) throws(TLSFailure) -> Void) throws(TLSFailure) -> OpaquePointer {
        api.ERR_clear_error()
        guard let context = api.SSL_CTX_new(method) else { throw .invalidConfiguration(.rejected(api.takeErrorOrUnknown())) }
        do throws(TLSFailure) {
            _ = api.SSL_CTX_set_options(context, OpenSSLConstants.opNoRenegotiation | OpenSSLConstants.opNoCompression)
            _ = api.SSL_CTX_ctrl(context, OpenSSLConstants.ctrlMode, OpenSSLConstants.modeAutoRetry, nil)
            guard api.SSL_CTX_ctrl(context, OpenSSLConstants.ctrlSetMinProtoVersion, Int(minimum.openSSLValue), nil) == 1 else {
                throw .invalidConfiguration(.rejected(api.takeErrorOrUnknown()))
            }
            if let maximum {
                guard maximum >= minimum else { throw .invalidConfiguration(.versionRange(minimum: minimum, maximum: maximum)) }
                guard api.SSL_CTX_ctrl(context, OpenSSLConstants.ctrlSetMaxProtoVersion, Int(maximum.openSSLValue), nil) == 1 else {
                    throw .invalidConfiguration(.rejected(api.takeErrorOrUnknown()))
                }
            }
            try configure(context)
            return context
        } catch {
            api.SSL_CTX_free(context)
            throw error
        }
    }

    /// `names` in ALPN's wire format: each name preceded by its length.
    static func alpnWireFormat(_ names: [String]) throws(TLSFailure) -> [UInt8] {
        var wire: [UInt8] = []
        for name in names {
            let bytes = Array(name.utf8)
            guard (1...255).contains(bytes.count) else { throw .invalidConfiguration(.invalidApplicationProtocol(name)) }
            wire.append(UInt8(bytes.count))
            wire.append(contentsOf: bytes)
        }
        return wire
    }
}
