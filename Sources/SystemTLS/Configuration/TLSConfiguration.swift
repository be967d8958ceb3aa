/// How a client verifies the servers it talks to, as curl does by default: the chain up to a
/// trusted root, its dates, and the host name against the certificate's subject alternative
/// names; TLS 1.2 at least.
///
/// ```swift
/// var tls = TLSConfiguration()                                  // the system's trust store
/// tls = TLSConfiguration(trustRoots: .pemFile("/etc/myapp/ca.pem"), minimumVersion: .v1_3)
/// ```
public struct TLSConfiguration: Sendable, Hashable {
    /// The certificates a server's chain must lead to.
    public var trustRoots: TrustRoots
    /// The oldest protocol version accepted.
    public var minimumVersion: TLSVersion
    /// Whether the server's certificate is checked at all.
    public var certificateVerification: CertificateVerification

    /// A configuration; the defaults verify fully against the system's trust store with TLS 1.2 at least.
    public init(trustRoots: TrustRoots = .system, minimumVersion: TLSVersion = .v1_2,
                certificateVerification: CertificateVerification = .full) {
        self.trustRoots = trustRoots
        self.minimumVersion = minimumVersion
        self.certificateVerification = certificateVerification
    }

    /// Where trusted root certificates come from.
    public enum TrustRoots: Sendable, Hashable {
        /// The system's trust store, where OpenSSL looks by default; the `SSL_CERT_FILE` and
        /// `SSL_CERT_DIR` environment variables, read when a context is first made, replace it.
        case system
        /// The certificates in the PEM file at this path, and no others (curl's `--cacert`).
        case pemFile(String)
        /// The certificates in this PEM text, and no others.
        case pem(String)
    }

    /// How much of the server's certificate is checked.
    public enum CertificateVerification: Sendable, Hashable {
        /// The chain, its dates and the host name (the default).
        case full
        /// Nothing: any certificate is accepted. For tests against self-signed servers only:
        /// the connection is encrypted but the server is not authenticated.
        case none
    }
}
