import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failure classified for the caller: no data, timeout, no connection, or an error the server reported.
public enum APIError: Error, LocalizedError {
    /// The server answered successfully but with nothing to decode.
    case empty
    /// The request took too long (URLSession timeout, transport deadline or a reactive timeout).
    case requestTimeout(any Error)
    /// The server could not be reached or the connection broke.
    case internetConnection(any Error)
    /// The server answered with an error status; `errorCode` is the `code` of a JSON error body.
    case restError(any Error, statusCode: Int?, errorCode: String?)

    /// The HTTP status of a `.restError`.
    public var statusCode: Int? {
        if case .restError(_, let statusCode, _) = self { return statusCode }
        return nil
    }

    /// The codes identifying the failure: the server's `code` for `.restError`, the root
    /// `URLError` code (as decimal text, e.g. `"-1001"`) for a timeout or connection error.
    public var errorCodes: [String] {
        switch self {
        case .empty:
            return []
        case .restError(_, _, let errorCode):
            return errorCode.map { [$0] } ?? []
        case .requestTimeout(let error), .internetConnection(let error):
            return error.urlError.map { ["\($0.code.rawValue)"] } ?? []
        }
    }

    /// Whether this is a connection failure.
    public var isNoNetwork: Bool {
        if case .internetConnection = self { return true }
        return false
    }

    /// The error this classification wraps.
    public var underlyingError: (any Error)? {
        switch self {
        case .empty: return nil
        case .requestTimeout(let error), .internetConnection(let error), .restError(let error, _, _): return error
        }
    }

    /// The `message` of the server's JSON error body, if any.
    public var serverMessage: String? {
        guard case .restError(let error, _, _) = self else { return nil }
        if let envelopeError = error as? EnvelopeError { return envelopeError.serverMessage }
        guard let response = (error as? ProviderError)?.response else { return nil }
        return ServerErrorBody(data: response.data)?.message
    }

    /// A human message by kind and status range, with the server's message when present; it
    /// names the host and port of a refused loopback or private address, the host and wait of
    /// a transport timeout, and the URL (without its query) of an HTTP error when the response carries its request.
    public var errorDescription: String? {
        switch self {
        case .empty:
            return "The server returned no data."
        case .requestTimeout(let error):
            guard case .timedOut(_, let after, let endpoint)? = Self.transportError(in: error) else {
                return "The request timed out."
            }
            return "The request to \(endpoint) timed out after \(TransportError.format(after))."
        case .internetConnection(let error):
            if error.isLostConnection { return "The network connection was lost." }
            if let refused = Self.transportError(in: error), case .cannotConnect(let host, _, _) = refused,
               LocalAddress.isLoopbackOrPrivate(host) {
                return refused.description.prefix(1).uppercased() + refused.description.dropFirst() + "."
            }
            if let url = ErrorClassification.chain(of: error).lazy.compactMap(ErrorClassification.failingURL).first,
               let host = url.host,
               LocalAddress.isLoopbackOrPrivate(host) {
                return "Could not connect to \(host)\(url.port.map { ":\($0)" } ?? "")."
            }
            return "No internet connection."
        case .restError(let error as EnvelopeError, _, _):
            return error.errorDescription
        case .restError(let error, let statusCode, _):
            var summary = statusCode.map(Self.summary(forStatus:)) ?? error.localizedDescription
            if let url = (error as? ProviderError)?.response?.request?.url { summary += " from \(Self.withoutQuery(url))" }
            guard let message = serverMessage, !message.isEmpty else { return summary }
            return "\(summary): \(message)"
        }
    }

    /// `url` without its query and fragment, which may carry keys or tokens.
    static func withoutQuery(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    /// The innermost `TransportError` under `error`'s wrappers, if any.
    private static func transportError(in error: any Error) -> TransportError? {
        ErrorClassification.chain(of: error).compactMap { $0 as? TransportError }.last
    }

    /// A human summary of an HTTP status by its range, e.g. `Client error (404 Not Found)`.
    public static func summary(forStatus statusCode: Int) -> String {
        let label = reasonPhrases[statusCode].map { "\(statusCode) \($0)" } ?? "\(statusCode)"
        switch statusCode {
        case 100..<200: return "Unexpected informational response (\(label))"
        case 200..<300: return "Unexpected successful response (\(label))"
        case 300..<400: return "Unexpected redirect (\(label))"
        case 400..<500: return "Client error (\(label))"
        case 500..<600: return "Server error (\(label))"
        default: return "Unknown status (\(label))"
        }
    }

    private static let reasonPhrases: [Int: String] = [
        301: "Moved Permanently", 302: "Found", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large", 415: "Unsupported Media Type",
        422: "Unprocessable Content", 429: "Too Many Requests",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]
}

/// Building blocks of the `catchTimeout()` / `catchInternetConnection()` / `catchREST()` chain.
/// Each returns the classification for an error it owns and `nil` for one it passes on.
extension APIError {
    /// `.requestTimeout` for any timeout under the wrappers.
    public static func timeout(from error: any Error) -> APIError? {
        if let apiError = error as? APIError { return apiError.isRequestTimeout ? apiError : nil }
        return error.isTimeout ? .requestTimeout(error) : nil
    }

    /// `.internetConnection` for a missing or broken connection under the wrappers.
    public static func internetConnection(from error: any Error) -> APIError? {
        if let apiError = error as? APIError { return apiError.isNoNetwork ? apiError : nil }
        return (error.isNotConnection || error.isLostConnection) ? .internetConnection(error) : nil
    }

    /// `.restError` for a `ProviderError.statusCode`, or any `ProviderError` carrying a response
    /// with a status of 400 or more: its status code, and the `code` (string or integer) of a
    /// JSON error body. A non-JSON body gives `errorCode: nil`. An `EnvelopeError.server` gives
    /// its response's status and the envelope's code.
    public static func rest(from error: any Error) -> APIError? {
        if let apiError = error as? APIError {
            if case .restError = apiError { return apiError }
            return nil
        }
        if case .server(let code, _, let response)? = error as? EnvelopeError {
            return .restError(error, statusCode: response.statusCode, errorCode: code)
        }
        guard let providerError = error as? ProviderError, let response = providerError.response else { return nil }
        if case .statusCode = providerError {} else if response.statusCode < 400 { return nil }
        return .restError(error, statusCode: response.statusCode, errorCode: ServerErrorBody(data: response.data)?.code)
    }

    /// Connection, then timeout, then REST: the classification `classifyErrors()` applies.
    public static func classify(_ error: any Error) -> APIError? {
        internetConnection(from: error) ?? timeout(from: error) ?? rest(from: error)
    }

    private var isRequestTimeout: Bool {
        if case .requestTimeout = self { return true }
        return false
    }
}
