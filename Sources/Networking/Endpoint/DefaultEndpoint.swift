import Foundation
import Synchronization

/// The endpoint a provider builds from a target by default: `baseURL` with `path` appended
/// (unless `path` is empty), the target's method, task and headers, and a sample response of
/// status 200 with `sampleData`.
public func defaultEndpoint(for target: some TargetType) -> Endpoint {
    let url = target.path.isEmpty ? target.baseURL : JoinedURL.last.url(target.baseURL, appending: target.path)
    let sampleData = target.sampleData
    return Endpoint(url: url.absoluteString,
                    sampleResponseClosure: { .networkResponse(200, sampleData) },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers,
                    builtURL: url)
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

    private let entry = Mutex<Entry?>(nil)

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
