/// What is wrong with a `TLSConfiguration` or `TLSServerConfiguration`: found when its context
/// is made, before any connection. Thrown as `TLSFailure.invalidConfiguration`.
public enum TLSConfigurationError: Sendable, Hashable {
    /// The PEM file at `path` could not be read.
    case unreadableFile(path: String)
    /// The PEM holds no certificate (`source` is the file's path, or "PEM text").
    case noCertificate(source: String)
    /// A certificate in the PEM could not be parsed; `error` is OpenSSL's reason.
    case invalidCertificate(source: String, error: OpenSSLError)
    /// The PEM holds no private key OpenSSL can read (it must not be encrypted).
    case invalidPrivateKey(source: String, error: OpenSSLError)
    /// The private key is not the key of the chain's first certificate.
    case privateKeyMismatch
    /// An ALPN protocol name is empty or longer than 255 bytes.
    case invalidApplicationProtocol(String)
    /// The server's maximum version is below its minimum.
    case versionRange(minimum: TLSVersion, maximum: TLSVersion)
    /// OpenSSL refused a setting (it ran out of memory, most likely); `error` is its reason.
    case rejected(OpenSSLError)
}
