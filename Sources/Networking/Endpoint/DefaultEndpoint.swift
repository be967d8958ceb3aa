import Foundation
import Locking
import Synchronization

extension Endpoint {
    /// The endpoint a provider builds from `target` by default (`NetworkProvider.defaultEndpointMapping(for:)`):
    /// `baseURL` (the target's unless given) with `path` appended unless it is empty, the target's
    /// method, task and headers, and `sampleResponseClosure` (by default status 200 with `sampleData`).
    ///
    /// ```swift
    /// endpointClosure: { Endpoint(target: $0, baseURL: mirror) }
    /// ```
    public init(target: some TargetType, baseURL: URL? = nil, sampleResponseClosure: SampleResponseClosure? = nil) {
        let base = baseURL ?? target.baseURL
        let url = target.path.isEmpty ? base : JoinedURL.last.url(base, appending: target.path)
        let sampleData = target.sampleData
        self.init(url: url.absoluteString,
                  sampleResponseClosure: sampleResponseClosure ?? { .networkResponse(200, sampleData) },
                  method: target.method,
                  task: target.task,
                  httpHeaderFields: target.headers,
                  builtURL: url)
    }
}

/// `baseURL.appendingPathComponent(path)`, kept for the last base and path joined: a provider
/// sends the same target's URL again and again, and joining parses the URL anew (about 9k
/// instructions). The result is a value, so handing it out again changes nothing.
final class JoinedURL: Sendable {
    private struct Entry {
        let base: URL
        let path: String
        let joined: URL
    }

    /// The process's one cache (a single entry).
    static let last = JoinedURL()

    private let entry = Lock<Entry?>(nil)

    func url(_ base: URL, appending path: String) -> URL {
        let kept: URL? = entry.withLock { entry in
            guard let entry, entry.path == path, entry.base == base else { return nil }
            return entry.joined
        }
        if let kept { return kept }
        let joined = base.appendingPathComponent(path)
        entry.withLock { $0 = Entry(base: base, path: path, joined: joined) }
        return joined
    }
}
