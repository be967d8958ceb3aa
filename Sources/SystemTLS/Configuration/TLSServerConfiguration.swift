/// What a TLS server presents: its certificate chain and private key (PEM, unencrypted), the
/// protocol versions it accepts and the ALPN protocols it speaks.
///
/// ```swift
/// let tls = TLSServerConfiguration(certificateChain: .pemFile("cert.pem"), privateKey: .pemFile("key.pem"))
/// ```
public struct TLSServerConfiguration: Sendable, Hashable {
    /// The server's certificate first, then the intermediates that lead to a root.
    public var certificateChain: PEMSource
    /// The private key of the chain's first certificate.
    public var privateKey: PEMSource
    /// The oldest protocol version accepted.
    public var minimumVersion: TLSVersion
    /// The newest protocol version offered; `nil` for the newest OpenSSL speaks.
    public var maximumVersion: TLSVersion?
    /// The ALPN protocols spoken, in order of preference. A client that offers ALPN but none of
    /// these is refused with `no_application_protocol`; one that offers none is served. Empty:
    /// ALPN is ignored.
    public var applicationProtocols: [String]

    public init(certificateChain: PEMSource, privateKey: PEMSource, minimumVersion: TLSVersion = .v1_2,
                maximumVersion: TLSVersion? = nil, applicationProtocols: [String] = ["http/1.1"]) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.applicationProtocols = applicationProtocols
    }

    /// Where PEM data comes from.
    public enum PEMSource: Sendable, Hashable {
        /// The PEM file at this path.
        case pemFile(String)
        /// This PEM text.
        case pem(String)
    }
}
