/// A TLS alert (RFC 8446 section 6, RFC 5246 section 7.2): its number and its name.
///
/// Two alerts are equal when their numbers are: `failure == .handshakeFailed(.handshakeFailure)`.
public struct TLSAlert: Sendable, Hashable, CustomStringConvertible {
    /// The alert's number on the wire (`AlertDescription`), e.g. 40 for `handshake_failure`.
    public let code: UInt8

    /// The alert numbered `code`.
    public init(code: UInt8) {
        self.code = code
    }

    /// The RFC's name for the alert (`handshake_failure`), or `alert <number>` for one it does not name.
    public var name: String {
        Self.names[code] ?? "alert \(code)"
    }

    public var description: String { "\(name) (\(code))" }

    public static func == (lhs: TLSAlert, rhs: TLSAlert) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `handshake_failure`: no acceptable set of parameters.
    public static let handshakeFailure = TLSAlert(code: 40)
    /// `bad_certificate`: the peer's certificate was corrupt or failed to verify.
    public static let badCertificate = TLSAlert(code: 42)
    /// `certificate_expired`: the peer's certificate has expired or is not yet valid.
    public static let certificateExpired = TLSAlert(code: 45)
    /// `unknown_ca`: the peer's chain does not lead to a trusted root.
    public static let unknownCA = TLSAlert(code: 48)
    /// `decode_error`: a message could not be decoded.
    public static let decodeError = TLSAlert(code: 50)
    /// `protocol_version`: no protocol version both sides support.
    public static let protocolVersion = TLSAlert(code: 70)
    /// `no_renegotiation`: a renegotiation was refused.
    public static let noRenegotiation = TLSAlert(code: 100)
    /// `no_application_protocol`: no ALPN protocol both sides support.
    public static let noApplicationProtocol = TLSAlert(code: 120)

    private static let names: [UInt8: String] = [
        0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 21: "decryption_failed",
        22: "record_overflow", 30: "decompression_failure", 40: "handshake_failure", 41: "no_certificate",
        42: "bad_certificate", 43: "unsupported_certificate", 44: "certificate_revoked",
        45: "certificate_expired", 46: "certificate_unknown", 47: "illegal_parameter", 48: "unknown_ca",
        49: "access_denied", 50: "decode_error", 51: "decrypt_error", 60: "export_restriction",
        70: "protocol_version", 71: "insufficient_security", 80: "internal_error",
        86: "inappropriate_fallback", 90: "user_canceled", 100: "no_renegotiation",
        109: "missing_extension", 110: "unsupported_extension", 111: "certificate_unobtainable",
        112: "unrecognized_name", 113: "bad_certificate_status_response", 114: "bad_certificate_hash_value",
        115: "unknown_psk_identity", 116: "certificate_required", 120: "no_application_protocol",
    ]
}
