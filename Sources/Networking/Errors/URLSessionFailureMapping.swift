import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession transport's own reading of what FoundationNetworking reports, the one place
/// that looks at message text: libcurl's messages are the only sign of two lost connections.
///
/// - -1011 "Empty reply from server": the server accepted and closed without a byte;
/// - -1 "transfer closed with N bytes remaining": the body was cut short.
enum URLSessionFailureMapping {
    /// Whether `error`, a `URLError` from URLSession, means the connection broke after it was made.
    static func isLostConnection(_ error: URLError) -> Bool {
        switch error.code {
        case .networkConnectionLost: return true
        case .badServerResponse: return message(of: error).contains("empty reply")
        case .unknown: return message(of: error).contains("transfer closed")
        default: return false
        }
    }

    private static func message(of error: URLError) -> String {
        ((error.userInfo[NSLocalizedDescriptionKey] as? String) ?? error.localizedDescription).lowercased()
    }
}
