/// When a certificate's common name may stand for the host: as curl decides, only when the
/// certificate has no DNS and no IP subject alternative name at all. OpenSSL's own host check
/// would read the common name whenever there is no DNS name, so a certificate naming only
/// `IP:127.0.0.1` with `CN=localhost` would pass for `localhost`, which curl refuses ("no
/// alternative certificate subject name matches").
///
/// It is the client context's certificate verification (`SSL_CTX_set_cert_verify_callback`):
/// it looks at the leaf's alternative names, tells OpenSSL's host check to ignore the subject
/// when any is a DNS or IP name, then runs OpenSSL's verification unchanged.
enum CommonNameRule {
    /// `int (*)(X509_STORE_CTX *, void *)`: OpenSSL's chain and host verification, the subject
    /// left out of the host check when the leaf has DNS or IP alternative names.
    static let verifyCertificate: OpenSSL.CertificateVerifyCallback = { storeContext, _ in
        // A context exists only once the library loaded.
        guard case .success(let api) = OpenSSL.shared else { return 0 }
        if let leaf = api.X509_STORE_CTX_get0_cert(storeContext), hasDNSOrIPName(leaf, api) {
            let parameters = api.X509_STORE_CTX_get0_param(storeContext)
            api.X509_VERIFY_PARAM_set_hostflags(parameters, OpenSSLConstants.checkFlagNoPartialWildcards | OpenSSLConstants.checkFlagNeverCheckSubject)
        }
        return api.X509_verify_cert(storeContext)
    }

    /// Whether `certificate`'s subject alternative names hold a DNS name or an IP address.
    static func hasDNSOrIPName(_ certificate: OpaquePointer, _ api: OpenSSL) -> Bool {
        guard let names = api.X509_get_ext_d2i(certificate, OpenSSLConstants.nidSubjectAltName, nil, nil) else {
            api.ERR_clear_error()
            return false
        }
        defer { api.GENERAL_NAMES_free(names) }
        for index in 0..<max(0, api.OPENSSL_sk_num(names)) {
            // A `GENERAL_NAME` begins with its `int type`.
            guard let name = api.OPENSSL_sk_value(names, index) else { continue }
            let type = name.load(as: Int32.self)
            if type == OpenSSLConstants.generalNameDNS || type == OpenSSLConstants.generalNameIPAddress { return true }
        }
        return false
    }
}
