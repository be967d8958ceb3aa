import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession transport's own reading of what FoundationNetworking reports, the one place
/// that looks at message text. Everywhere else a `URLError` is read by its code; libcurl's
/// messages are read only where the code alone does not say the connection was lost, one entry
/// of `lostConnectionMessages` per case:
///
/// - -1011 (`badServerResponse`) "Empty reply from server": the server accepted and closed
///   without a byte (other -1011s are bad responses);
/// - -1 (`unknown`) "transfer closed with N bytes remaining": the body was cut short.
///
/// `appleCode(for:)` gives these and the cases of `appleCodes` the code Apple's URLSession
/// reports, which `URLSessionTransport` reports in their place.
enum URLSessionFailureMapping {
    /// The code-and-text cases that mean a lost connection: the code libcurl's failure arrives
    /// with, and a piece of its message (compared without case).
    static let lostConnectionMessages: [(code: URLError.Code, fragment: String)] = [
        (.badServerResponse, "empty reply"),
        (.unknown, "transfer closed"),
    ]

    /// Whether `error`, a `URLError` from URLSession, means the connection broke after it was
    /// made: -1005 by its code, the cases above by their text.
    static func isLostConnection(_ error: URLError) -> Bool {
        if error.code == .networkConnectionLost { return true }
        let cases = lostConnectionMessages.filter { $0.code == error.code }
        guard !cases.isEmpty else { return false }
        let message = message(of: error)
        return cases.contains { message.contains($0.fragment) }
    }

    /// libcurl's failures that arrive with another code than Apple's URLSession gives the same
    /// failure, by their text: -1002 "Received HTTP/0.9 when not allowed" (bytes that are not an
    /// HTTP response) is -1011; -1 "SSL certificate problem: ..." (OpenSSL's verification
    /// result) is -1204 for an unknown or self-signed root, -1201 for a date, -1202 otherwise,
    /// and a host name the certificate does not name is -1202, as `TransportError.tls` maps them.
    static let appleCodes: [(code: URLError.Code, fragment: String, apple: URLError.Code)] = [
        (.unsupportedURL, "http/0.9", .badServerResponse),
        (.unknown, "ssl certificate problem: unable to get", .serverCertificateHasUnknownRoot),
        (.unknown, "ssl certificate problem: self signed", .serverCertificateHasUnknownRoot),
        (.unknown, "ssl certificate problem: self-signed", .serverCertificateHasUnknownRoot),
        (.unknown, "ssl certificate problem: unable to verify the first", .serverCertificateHasUnknownRoot),
        (.unknown, "ssl certificate problem: certificate has expired", .serverCertificateHasBadDate),
        (.unknown, "ssl certificate problem: certificate is not yet valid", .serverCertificateHasBadDate),
        (.unknown, "ssl certificate problem", .serverCertificateUntrusted),
        (.unknown, "does not match target host", .serverCertificateUntrusted),
        (.unknown, "no alternative certificate subject name matches", .serverCertificateUntrusted),
    ]

    /// The code Apple's URLSession (and `SocketTransport`) gives the failure libcurl reported
    /// as `error`, when it differs: -1005 for a lost connection, the first of `appleCodes` whose
    /// code and text match; nil when `error`'s own code is that one.
    static func appleCode(for error: URLError) -> URLError.Code? {
        if error.code != .networkConnectionLost, isLostConnection(error) { return .networkConnectionLost }
        let message = message(of: error)
        return appleCodes.first { $0.code == error.code && message.contains($0.fragment) }?.apple
    }

    private static func message(of error: URLError) -> String {
        ((error.userInfo[NSLocalizedDescriptionKey] as? String) ?? error.localizedDescription).lowercased()
    }
}
