import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire
import Locking

/// The `HTTPURLResponse` of a response whose transport read only the head off the wire
/// (`SocketTransport`): the status, version and fields are kept, and the object (repeated fields
/// joined, as `HTTPHeaders.joinedByName` does) is built the first time someone asks for it, then
/// kept, so every read returns the same instance.
///
/// Foundation's initializer parses the content type, sanitizes every field and derives a
/// suggested file name, for an object that the provider's own path (filters, mappers) never reads.
final class DeferredHTTPURLResponse: Sendable {
    private struct Head: Sendable {
        let url: URL
        let statusCode: Int
        let httpVersion: HTTPVersion
        let headers: HTTPHeaders
    }

    private enum State: Sendable {
        case pending(Head)
        case built(HTTPURLResponse?)
    }

    private let state: Lock<State>
    /// The URL that answered: what the HTTP cache checks of every answer, read without building
    /// the object.
    let url: URL
    /// The head's fields, kept beside the built object: what the HTTP cache merges a 304 into
    /// without reading `allHeaderFields` back.
    let headers: HTTPHeaders

    init(url: URL, statusCode: Int, httpVersion: HTTPVersion, headers: HTTPHeaders) {
        self.url = url
        self.headers = headers
        state = Lock(.pending(Head(url: url, statusCode: statusCode, httpVersion: httpVersion, headers: headers)))
    }

    /// The response, built on first use (Foundation's initializer runs under the lock; it calls
    /// no code of a caller).
    var response: HTTPURLResponse? {
        state.withLock { state in
            switch state {
            case .built(let response):
                return response
            case .pending(let head):
                let response = HTTPURLResponse(url: head.url, statusCode: head.statusCode, httpVersion: head.httpVersion.description,
                                               headerFields: head.headers.joinedByName)
                state = .built(response)
                return response
            }
        }
    }
}
