/// A TLS protocol version this layer speaks; older ones are never negotiated.
public enum TLSVersion: Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// TLS 1.2 (RFC 5246).
    case v1_2
    /// TLS 1.3 (RFC 8446).
    case v1_3

    /// OpenSSL's number for the version (`TLS1_2_VERSION`, `TLS1_3_VERSION`).
    var openSSLValue: Int32 {
        switch self {
        case .v1_2: OpenSSLConstants.tls1_2Version
        case .v1_3: OpenSSLConstants.tls1_3Version
        }
    }

    /// The version OpenSSL negotiated (`SSL_version`), or `nil` for one older than TLS 1.2.
    init?(openSSLValue: Int32) {
        switch openSSLValue {
        case OpenSSLConstants.tls1_2Version: self = .v1_2
        case OpenSSLConstants.tls1_3Version: self = .v1_3
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .v1_2: "TLS 1.2"
        case .v1_3: "TLS 1.3"
        }
    }
}
