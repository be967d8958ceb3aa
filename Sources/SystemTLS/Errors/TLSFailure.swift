/// Why TLS failed, as a kind to switch on, each with what a caller needs: SystemTLS's one error
/// type. Making a context throws it (no library, a configuration it cannot use), and so do a
/// connection's steps (the handshake, a certificate, the records after it). OpenSSL's own
/// reasons come as payloads (`OpenSSLError`, `TLSVerificationError`), never as errors of their own.
///
/// A connection cut without `close_notify` is not a failure here: the machine reports it as
/// `TLSMachine.Action.closed(.truncated)`, which a client maps to a lost connection.
public enum TLSFailure: Error, Sendable, Hashable {
    /// The peer's certificate chain does not lead to a trusted root, or is otherwise not
    /// trusted; OpenSSL's verification result says why (`isUnknownRoot` for self-signed or an
    /// unknown issuer).
    case untrustedChain(TLSVerificationError)
    /// The certificate is trusted but names neither `host` (a DNS subject alternative name, with
    /// RFC 6125 wildcards) nor its address (an IP subject alternative name).
    case hostNameMismatch(host: String)
    /// The certificate (or one in its chain) is outside its validity period.
    case badCertificateDate(CertificateDate)
    /// The peer ended the handshake with this fatal alert (e.g. `handshake_failure`,
    /// `no_application_protocol`, or `unknown_ca` when it refused our certificate).
    case handshakeFailed(TLSAlert)
    /// No protocol version both sides accept (the peer's `protocol_version` alert, or a
    /// version below our minimum offered).
    case protocolVersionRefused
    /// The peer ended an established connection with this fatal alert.
    case alertReceived(TLSAlert)
    /// A renegotiation was asked for and refused (this layer never renegotiates).
    case renegotiationRefused
    /// The peer's bytes are not valid TLS at this point (garbage, a bad record MAC, a message
    /// out of order, a record too long): OpenSSL's reason.
    case protocolError(OpenSSLError)
    /// The configuration could not be used (found when its context was made).
    case invalidConfiguration(TLSConfigurationError)
    /// No usable OpenSSL could be loaded (found when a context was made, or by
    /// `TLSLibrary.load()`); it names the files looked for.
    case unavailable(TLSUnavailable)
    /// The host is neither a DNS name nor an IP address OpenSSL can check a certificate against.
    case invalidHostName(String)
    /// OpenSSL failed on our side (out of memory, most likely): its reason.
    case internalError(OpenSSLError)

    /// Which end of its validity period a certificate is outside.
    public enum CertificateDate: Sendable, Hashable {
        /// Its `notAfter` has passed.
        case expired
        /// Its `notBefore` has not come yet.
        case notYetValid
    }
}
