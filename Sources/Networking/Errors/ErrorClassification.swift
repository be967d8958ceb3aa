import Foundation
import Reactive
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Classifiers that look through every wrapper (`ProviderError`, `APIError`, `NSUnderlyingErrorKey`)
/// down to the root cause.
///
/// Each link of the chain is given a kind (`ErrorClassification.Kind`), from:
/// - `TransportError`: its case (`.cannotConnect`, `.connectionLost`, `.timedOut`, ...);
/// - `URLError`: its code (-1009, -1004, -1003, -1006 not connected; -1005 lost; -1001 timeout;
///   -1011, -1002, -1015, -1016, -1017 bad response; -999 cancelled), with the URLSession
///   transport's reading of FoundationNetworking's messages for two lost connections
///   (`URLSessionFailureMapping`);
/// - POSIX errors: `ECONNREFUSED` not connected, `ECONNRESET` / `ECONNABORTED` lost, `ETIMEDOUT` timeout;
/// - any `TimeoutClassifiable` saying so (`ReactiveError.timeout` among them): timeout.
extension Error {
    /// The innermost `URLError` under every wrapper, if any; a `TransportError` counts as the
    /// `URLError` URLSession reports for the same event.
    public var urlError: URLError? {
        ErrorClassification.chain(of: self).compactMap(ErrorClassification.asURLError).last
    }

    /// No route to the server: not connected, refused, unknown host, DNS failure.
    public var isNotConnection: Bool { ErrorClassification.contains(.notConnected, in: self) }

    /// The connection broke after it was made: lost, aborted, reset, empty reply, body cut short.
    public var isLostConnection: Bool { ErrorClassification.contains(.lostConnection, in: self) }

    /// A timeout anywhere in the chain.
    public var isTimeout: Bool { ErrorClassification.contains(.timeout, in: self) }

    /// The server answered with something that is not a usable HTTP response.
    public var isBadResponse: Bool {
        guard !isLostConnection else { return false }
        return ErrorClassification.contains(.badResponse, in: self)
    }

    /// The request was cancelled (-999).
    public var isCancelled: Bool { ErrorClassification.contains(.cancelled, in: self) }
}

/// The building blocks of the `Error` classifiers.
enum ErrorClassification {
    /// What one error in a chain says happened.
    enum Kind: Sendable, Equatable {
        case notConnected, lostConnection, timeout, badResponse, cancelled
    }

    private static let maximumDepth = 16

    /// Whether any link of `error`'s chain is of `kind`.
    static func contains(_ kind: Kind, in error: any Error) -> Bool {
        chain(of: error).contains { self.kind(of: $0) == kind }
    }

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

    /// The kind of one link, nil when it says nothing the classifiers know.
    static func kind(of error: any Error) -> Kind? {
        if let transport = error as? TransportError { return transportKind(transport) }
        if let classifiable = error as? any TimeoutClassifiable, classifiable.representsTimeout { return .timeout }
        if let urlError = asURLError(error) { return urlErrorKind(urlError) }
        switch posixCode(error).flatMap(POSIXErrorCode.init(rawValue:)) {
        case .ECONNREFUSED?: return .notConnected
        case .ECONNRESET?, .ECONNABORTED?: return .lostConnection
        case .ETIMEDOUT?: return .timeout
        default: return nil
        }
    }

    /// A TLS failure is none of the kinds, as URLSession's `secureConnectionFailed` and
    /// certificate codes are none of them.
    private static func transportKind(_ error: TransportError) -> Kind? {
        switch error {
        case .cannotConnect, .cannotFindHost: .notConnected
        case .connectionLost: .lostConnection
        case .timedOut: .timeout
        case .badResponse, .responseTooLarge, .tooManyRedirects, .notHTTPResponse: .badResponse
        case .cancelled: .cancelled
        case .tls, .tlsUnavailable: nil
        // As their URLSession codes: a proxy refusing the tunnel leaves the host unreachable;
        // wanting credentials (407) is none of the kinds.
        case .proxyRefused(let status, _): status == 407 ? nil : .notConnected
        }
    }

    private static func urlErrorKind(_ error: URLError) -> Kind? {
        if URLSessionFailureMapping.isLostConnection(error) { return .lostConnection }
        switch error.code {
        case .notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed: return .notConnected
        case .timedOut: return .timeout
        case .badServerResponse, .unsupportedURL, .cannotDecodeRawData, .cannotDecodeContentData, .cannotParseResponse:
            return .badResponse
        case .cancelled: return .cancelled
        default: return nil
        }
    }

    private static func wrapped(in error: any Error) -> (any Error)? {
        if let providerError = error as? ProviderError { return providerError.underlyingError }
        if let apiError = error as? APIError { return apiError.underlyingError }
        if error is TransportError { return nil }
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
        if let transport = error as? TransportError { return transport.urlError(url: nil) }
        let nsError = error as NSError
        // `URLError.Code(rawValue:)` is failable on Linux only; `as URLError.Code?` builds on both.
        guard nsError.domain == NSURLErrorDomain,
              let code = URLError.Code(rawValue: nsError.code) as URLError.Code? else { return nil }
        return URLError(code, userInfo: nsError.userInfo)
    }

    /// The URL a URLSession error names under `NSURLErrorFailingURLErrorKey` (a `URL`, or on
    /// Linux sometimes an `NSURL` or its text).
    static func failingURL(of error: any Error) -> URL? {
        guard asURLError(error) != nil, !(error is TransportError),
              let value = (error as NSError).userInfo[NSURLErrorFailingURLErrorKey] else { return nil }
        if let url = value as? URL { return url }
        return URL(string: String(describing: value))
    }

    private static func posixCode(_ error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let nsError = error as NSError
        return nsError.domain == NSPOSIXErrorDomain ? Int32(nsError.code) : nil
    }
}

/// `ReactiveError.timeout` (the `timeout` operator's error) is a timeout for the classifiers.
extension ReactiveError: TimeoutClassifiable {
    /// Whether this is the `timeout` operator's error.
    public var representsTimeout: Bool { self == .timeout }
}

/// A transport's deadline is a timeout for the classifiers.
extension TransportError: TimeoutClassifiable {
    /// Whether this is `.timedOut`.
    public var representsTimeout: Bool {
        if case .timedOut = self { return true }
        return false
    }
}
