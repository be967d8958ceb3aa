/// Why OpenSSL did not trust the peer's certificate chain: its `X509_V_ERR_*` number and text.
public struct TLSVerificationError: Sendable, Hashable, CustomStringConvertible {
    /// OpenSSL's verification result (`X509_V_ERR_*`), e.g. 20 for "unable to get local issuer certificate".
    public let code: Int
    /// OpenSSL's text for `code` (`X509_verify_cert_error_string`).
    public let reason: String

    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Whether the chain ends at a root the trust store does not hold (self-signed, unknown
    /// issuer): what URLSession reports as `.serverCertificateHasUnknownRoot`.
    public var isUnknownRoot: Bool {
        [OpenSSLConstants.verifyErrUnableToGetIssuerCert, OpenSSLConstants.verifyErrDepthZeroSelfSignedCert,
         OpenSSLConstants.verifyErrSelfSignedCertInChain, OpenSSLConstants.verifyErrUnableToGetIssuerCertLocally,
         OpenSSLConstants.verifyErrUnableToVerifyLeafSignature].contains(code)
    }

    public var description: String { "\(reason) (X509_V_ERR \(code))" }
}
