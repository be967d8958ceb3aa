import Foundation
import Reactive
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Classifiers that look through every wrapper (`ProviderError`, `APIError`, `NSUnderlyingErrorKey`)
/// down to the root cause.
///
/// The mapping, built on what FoundationNetworking 6.3 reports on Linux:
/// - not connected: -1009 not connected, -1004 cannot connect (refused port), -1003 cannot find
///   host (unknown host), -1006 DNS lookup failed, POSIX `ECONNREFUSED`;
/// - lost connection: -1005 connection lost (a reset), POSIX `ECONNABORTED` / `ECONNRESET`,
///   -1011 "Empty reply from server" (a server that accepts and closes; the same event also
///   arrives as -1005), and -1 "transfer closed with N bytes remaining" (a body cut short);
/// - timeout: -1001 timed out, POSIX `ETIMEDOUT`, any `TimeoutClassifiable` saying so;
/// - bad response: -1011 otherwise, -1002 (non-HTTP bytes), -1015/-1016 decoding failures;
/// - cancelled: -999.
extension Error {
    /// The innermost `URLError` under every wrapper, if any.
    public var urlError: URLError? {
        ErrorClassification.chain(of: self).compactMap(ErrorClassification.asURLError).last
    }

    /// No route to the server: not connected, refused, unknown host, DNS failure.
    public var isNotConnection: Bool {
        ErrorClassification.chain(of: self).contains(where: ErrorClassification.isNotConnectionLink)
    }

    /// The connection broke after it was made: lost, aborted, reset, empty reply, body cut short.
    public var isLostConnection: Bool {
        ErrorClassification.chain(of: self).contains(where: ErrorClassification.isLostConnectionLink)
    }

    /// A timeout anywhere in the chain.
    public var isTimeout: Bool {
        ErrorClassification.chain(of: self).contains(where: ErrorClassification.isTimeoutLink)
    }

    /// The server answered with something that is not a usable HTTP response.
    public var isBadResponse: Bool {
        guard !isLostConnection else { return false }
        return ErrorClassification.chain(of: self).contains(where: ErrorClassification.isBadResponseLink)
    }

    /// The request was cancelled (-999).
    public var isCancelled: Bool {
        urlError?.code == .cancelled
    }
}

/// The building blocks of the `Error` classifiers.
enum ErrorClassification {
    private static let maximumDepth = 16

    /// `error` followed by each error it wraps, outermost first.
    static func chain(of error: any Error) -> [any Error] {
        var result: [any Error] = []
        var current: (any Error)? = error
        while let error = current, result.count < maximumDepth {
            result.append(error)
            current = wrapped(in: error)
        }
        return result
    }

    private static func wrapped(in error: any Error) -> (any Error)? {
        if let providerError = error as? ProviderError { return providerError.underlyingError }
        if let apiError = error as? APIError { return apiError.underlyingError }
        return nestedNSError(of: error)
    }

    private static func nestedNSError(of error: any Error) -> (any Error)? {
        if let urlError = error as? URLError {
            return urlError.errorUserInfo[NSUnderlyingErrorKey] as? any Error
        }
        let nsError = error as NSError
        return nsError.userInfo[NSUnderlyingErrorKey] as? any Error
    }

    static func asURLError(_ error: any Error) -> URLError? {
        if let urlError = error as? URLError { return urlError }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain,
              let code = URLError.Code(rawValue: nsError.code) as URLError.Code? else { return nil }
        return URLError(code, userInfo: nsError.userInfo)
    }

    private static func posixCode(_ error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let nsError = error as NSError
        return nsError.domain == NSPOSIXErrorDomain ? Int32(nsError.code) : nil
    }

    private static func description(of error: URLError) -> String {
        let text = (error.userInfo[NSLocalizedDescriptionKey] as? String) ?? error.localizedDescription
        return text.lowercased()
    }

    static func isNotConnectionLink(_ error: any Error) -> Bool {
        if let code = asURLError(error)?.code {
            return code == .notConnectedToInternet || code == .cannotConnectToHost
                || code == .cannotFindHost || code == .dnsLookupFailed
        }
        return posixCode(error) == ECONNREFUSED
    }

    static func isLostConnectionLink(_ error: any Error) -> Bool {
        if let urlError = asURLError(error) {
            switch urlError.code {
            case .networkConnectionLost: return true
            case .badServerResponse: return description(of: urlError).contains("empty reply")
            case .unknown: return description(of: urlError).contains("transfer closed")
            default: return false
            }
        }
        let code = posixCode(error)
        return code == ECONNABORTED || code == ECONNRESET
    }

    static func isTimeoutLink(_ error: any Error) -> Bool {
        if asURLError(error)?.code == .timedOut { return true }
        if posixCode(error) == ETIMEDOUT { return true }
        return isNonFoundationTimeout(error)
    }

    /// Timeouts that are neither `URLError` nor POSIX. Another module's timeout error joins by
    /// conforming to `TimeoutClassifiable` (or with one extra check here).
    static func isNonFoundationTimeout(_ error: any Error) -> Bool {
        if let classifiable = error as? any TimeoutClassifiable { return classifiable.representsTimeout }
        if let reactive = error as? ReactiveError { return reactive == .timeout }
        return false
    }

    static func isBadResponseLink(_ error: any Error) -> Bool {
        if error is TransportError { return true }
        guard let code = asURLError(error)?.code else { return false }
        return code == .badServerResponse || code == .unsupportedURL
            || code == .cannotDecodeRawData || code == .cannotDecodeContentData
            || code == .cannotParseResponse
    }
}
