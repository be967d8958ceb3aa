/// The values behind the OpenSSL macros and flags this module uses, as OpenSSL 1.1.1 and 3.x
/// define them in their headers (`ssl.h`, `tls1.h`, `bio.h`, `x509v3.h`, `x509_vfy.h`,
/// `sslerr.h`, `crypto.h`; the two versions agree on all of these).
enum OpenSSLConstants {
    // `OPENSSL_init_ssl` options.
    static let initLoadCryptoStrings: UInt64 = 0x0000_0002
    static let initLoadSSLStrings: UInt64 = 0x0020_0000

    // `SSL_ctrl` / `SSL_CTX_ctrl` commands (the macros `SSL_set_tlsext_host_name`,
    // `SSL_CTX_set_min_proto_version`, `SSL_CTX_set_max_proto_version`, `SSL_CTX_set_mode`,
    // `SSL_CTX_add1_chain_cert`).
    static let ctrlSetTLSExtHostName: Int32 = 55
    static let ctrlSetMinProtoVersion: Int32 = 123
    static let ctrlSetMaxProtoVersion: Int32 = 124
    static let ctrlMode: Int32 = 33
    static let ctrlChainCert: Int32 = 89
    static let tlsExtNameTypeHostName = 0

    // Protocol versions as `SSL_version` and the version controls give them.
    static let tls1_2Version: Int32 = 0x0303
    static let tls1_3Version: Int32 = 0x0304

    // `SSL_CTX_set_options` bits.
    static let opNoCompression: UInt64 = 1 << 17
    static let opNoRenegotiation: UInt64 = 1 << 30

    // `SSL_CTX_set_mode` bits.
    static let modeAutoRetry = 0x0000_0004

    // `SSL_CTX_set_verify` modes.
    static let verifyNone: Int32 = 0x00
    static let verifyPeer: Int32 = 0x01

    // `SSL_get_error` results.
    static let errorNone: Int32 = 0
    static let errorSSL: Int32 = 1
    static let errorWantRead: Int32 = 2
    static let errorWantWrite: Int32 = 3
    static let errorSyscall: Int32 = 5
    static let errorZeroReturn: Int32 = 6

    // `SSL_get_shutdown` bits.
    static let sentShutdown: Int32 = 1
    static let receivedShutdown: Int32 = 2

    // `BIO_ctrl` commands (the macros `BIO_ctrl_pending`, `BIO_set_mem_eof_return`).
    static let bioCtrlPending: Int32 = 10
    static let bioSetMemEOFReturn: Int32 = 130

    // `X509_VERIFY_PARAM_set_hostflags` flags.
    static let checkFlagNoPartialWildcards: UInt32 = 0x4
    static let checkFlagNeverCheckSubject: UInt32 = 0x20

    // `NID_subject_alt_name`, and the `GENERAL_NAME` types (`GEN_DNS`, `GEN_IPADD`) it holds.
    static let nidSubjectAltName: Int32 = 85
    static let generalNameDNS: Int32 = 2
    static let generalNameIPAddress: Int32 = 7

    // ALPN selection callback results.
    static let tlsExtErrOK: Int32 = 0
    static let tlsExtErrAlertFatal: Int32 = 2

    // `X509_V_*` verification results (`SSL_get_verify_result`).
    static let verifyOK = 0
    static let verifyErrUnableToGetIssuerCert = 2
    static let verifyErrCertNotYetValid = 9
    static let verifyErrCertHasExpired = 10
    static let verifyErrDepthZeroSelfSignedCert = 18
    static let verifyErrSelfSignedCertInChain = 19
    static let verifyErrUnableToGetIssuerCertLocally = 20
    static let verifyErrUnableToVerifyLeafSignature = 21
    static let verifyErrHostnameMismatch = 62
    static let verifyErrIPAddressMismatch = 64

    // Error libraries and reasons (`ERR_GET_LIB`, `ERR_GET_REASON`).
    static let errLibSys = 2
    static let errLibPEM = 9
    static let errLibSSL = 20
    static let pemReasonNoStartLine = 108
    static let sslReasonCertificateVerifyFailed = 134
    static let sslReasonVersionTooHigh = 166
    static let sslReasonNoProtocolsAvailable = 191
    static let sslReasonUnsupportedProtocol = 258
    static let sslReasonUnsupportedSSLVersion = 259
    static let sslReasonNoRenegotiation = 339
    static let sslReasonVersionTooLow = 396
    /// A reason of `alertReasonOffset + d` says the peer sent the alert `d` (`SSL_AD_REASON_OFFSET`).
    static let alertReasonOffset = 1000
}
