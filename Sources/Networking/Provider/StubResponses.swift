import Foundation
import Locking
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `HTTPURLResponse` that a provider's `.networkResponse` stubs carry, built once per URL and
/// status code instead of once per request: the last one built is kept and handed out again
/// while requests repeat its URL and status (an `HTTPURLResponse` is immutable).
final class StubResponses: Sendable {
    private struct Entry {
        let url: URL
        let statusCode: Int
        let response: HTTPURLResponse
    }

    private let last = Lock<Entry?>(nil)

    /// The stub response for `url` and `statusCode`: the kept one when both match, else a new one.
    func response(url: URL, statusCode: Int) -> HTTPURLResponse? {
        let kept: HTTPURLResponse? = last.withLock { entry in
            guard let entry, entry.statusCode == statusCode, entry.url == url else { return nil }
            return entry.response
        }
        if let kept { return kept }
        guard let made = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: nil) else {
            return nil
        }
        last.withLock { $0 = Entry(url: url, statusCode: statusCode, response: made) }
        return made
    }
}
