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

    private static func message(of error: URLError) -> String {
        ((error.userInfo[NSLocalizedDescriptionKey] as? String) ?? error.localizedDescription).lowercased()
    }
}
