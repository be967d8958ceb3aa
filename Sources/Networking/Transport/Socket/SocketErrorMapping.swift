import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
#if canImport(Glibc)
import Glibc
#endif

/// Maps what sockets and the HTTP parser report to the `URLError` codes URLSession uses on
/// Linux for the same event, keeping the original error under `NSUnderlyingErrorKey`:
/// unknown host -1003, refused or unreachable -1004, reset or cut short -1005, timeout -1001,
/// malformed response -1011. A body over the size limit is `TransportError.responseTooLarge`,
/// as with `URLSessionTransport`.
enum SocketErrorMapping {
    /// The error to report for `error` while talking to `url`.
    static func map(_ error: any Error, url: URL) -> any Error {
        if let socketError = error as? SocketError {
            return urlError(code(for: socketError), url: url, underlying: socketError)
        }
        if let wireError = error as? HTTPWireError {
            if case .bodyTooLarge(let limit) = wireError { return TransportError.responseTooLarge(limit: limit) }
            return urlError(code(for: wireError), url: url, underlying: wireError)
        }
        return error
    }

    /// A `URLError` with the failing URL, a description and the underlying error.
    static func urlError(_ code: URLError.Code, url: URL, underlying: (any Error)? = nil) -> URLError {
        var info: [String: Any] = [NSURLErrorFailingURLErrorKey: url]
        if let underlying {
            info[NSUnderlyingErrorKey] = underlying
            info[NSLocalizedDescriptionKey] = "\(underlying)"
        }
        return URLError(code, userInfo: info)
    }

    static func code(for error: SocketError) -> URLError.Code {
        switch error {
        case .addressResolution:
            return .cannotFindHost
        case .timedOut:
            return .timedOut
        case .closed:
            return .networkConnectionLost
        case .system(let operation, let number):
            switch operation {
            case "getaddrinfo": return .cannotFindHost
            case "connect", "socket", "getsockopt": return .cannotConnectToHost
            default: return number == ETIMEDOUT ? .timedOut : .networkConnectionLost
            }
        }
    }

    static func code(for error: HTTPWireError) -> URLError.Code {
        switch error {
        case .truncatedHead, .truncatedBody: .networkConnectionLost
        case .headersTooLarge, .malformedStartLine, .malformedHeader, .unsupportedVersion, .invalidContentLength,
             .unsupportedTransferEncoding, .malformedChunk, .bodyTooLarge: .badServerResponse
        }
    }

    /// Whether a failure on a reused connection before any response byte means the server had
    /// already closed it (so a fresh connection may be tried).
    static func isStaleConnection(_ error: any Error) -> Bool {
        if let wireError = error as? HTTPWireError, case .truncatedHead(let received) = wireError { return received == 0 }
        if let socketError = error as? SocketError {
            if socketError.isConnectionReset || socketError == .closed { return true }
            if case .system(_, let number) = socketError { return number == ECONNABORTED }
        }
        return false
    }
}
