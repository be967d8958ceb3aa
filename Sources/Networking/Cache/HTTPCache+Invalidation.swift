import Foundation
import HTTPClient
import HTTPWire

extension HTTPCache {
    /// What a non-error answer (`head`) to an unsafe request to `url` invalidates (RFC 9111
    /// §4.4): the stored `GET` and `HEAD` responses of `url`, and of the URLs its `Location` and
    /// `Content-Location` fields name when they are of `url`'s origin (another origin's never).
    func invalidate(after head: HTTPResponseHead, to url: URL) {
        removeResponses(for: url)
        for name in ["Location", "Content-Location"] {
            guard let value = head.headers[name], let named = URL(string: value, relativeTo: url)?.absoluteURL,
                  named.hasSameOrigin(as: url) else { continue }
            removeResponses(for: named)
        }
    }

    /// Forgets the stored `GET` and `HEAD` responses of `url`.
    private func removeResponses(for url: URL) {
        for method in ["GET", "HEAD"] { store.removeResponse(forKey: Self.key(method: method, url: url)) }
    }
}
