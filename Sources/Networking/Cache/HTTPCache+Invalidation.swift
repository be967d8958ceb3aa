import Foundation
import HTTPWire

extension HTTPCache {
    /// What a non-error answer (`head`) to an unsafe request to `url` invalidates (RFC 9111
    /// §4.4): the stored `GET` and `HEAD` responses of `url`, and of the URLs its `Location` and
    /// `Content-Location` fields name when they are of `url`'s origin (another origin's never).
    func invalidate(after head: HTTPResponseHead, to url: URL) {
        removeResponses(for: url)
        for name in ["Location", "Content-Location"] {
            guard let value = head.headers[name], let named = URL(string: value, relativeTo: url)?.absoluteURL,
                  Self.sameOrigin(named, url) else { continue }
            removeResponses(for: named)
        }
    }

    /// Forgets the stored `GET` and `HEAD` responses of `url`.
    private func removeResponses(for url: URL) {
        for method in ["GET", "HEAD"] { store.removeResponse(forKey: Self.key(method: method, url: url)) }
    }

    /// Whether `first` and `second` have one origin: scheme, host (without case) and port, an
    /// absent port being the scheme's default.
    private static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        guard let scheme = first.scheme?.lowercased(), scheme == second.scheme?.lowercased(),
              let host = first.host?.lowercased(), host == second.host?.lowercased() else { return false }
        return effectivePort(first, scheme: scheme) == effectivePort(second, scheme: scheme)
    }

    /// The port of `url`, or the default one of `scheme`.
    private static func effectivePort(_ url: URL, scheme: String) -> Int? {
        url.port ?? ["http": 80, "https": 443][scheme]
    }
}
