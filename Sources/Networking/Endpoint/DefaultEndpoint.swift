import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
        let joined = JoinedURL.last.joined(baseURL ?? target.baseURL, appending: target.path)
        self.init(url: joined.string,
                  sample: sampleResponseClosure.map { .closure($0) } ?? .data(target.sampleData),
                  method: target.method,
                  task: target.task,
                  httpHeaderFields: target.headers,
                  joined: joined.absolute == nil ? nil : joined)
    }
}

/// `baseURL.appendingPathComponent(path)` (or `baseURL` when `path` is empty) with its string
/// and whether it is absolute, kept for the last base and path joined: a provider sends the same
/// target's URL again and again, and joining parses the URL anew, as does reading its string
/// and scheme. The results are values, so handing them out again
/// changes nothing.
final class JoinedURL: Sendable {
    /// A base and path joined; an object, so the cache hands it out with one retain.
    final class Joined: Sendable {
        let base: URL
        let path: String
        /// The URL.
        let url: URL
        /// `url.absoluteString`.
        let string: String
        /// `url` when it is absolute (a scheme, no base URL), which `Endpoint.urlRequest()` then
        /// uses without checking or parsing again.
        let absolute: URL?
        /// A plain GET of `absolute`, built once for every `.requestPlain` endpoint without headers.
        let plainRequest: URLRequest?

        init(_ base: URL, _ path: String) {
            self.base = base
            self.path = path
            url = path.isEmpty ? base : base.appendingPathComponent(path)
            string = url.absoluteString
            absolute = url.baseURL == nil && url.scheme != nil ? url : nil
            plainRequest = absolute.map { URLRequest(url: $0) }
        }
    }

    /// The process's one cache (a single entry).
    static let last = JoinedURL()

    private let entry = Lock<Joined?>(nil)

    /// `base` with `path` appended, or `base` when `path` is empty.
    func url(_ base: URL, appending path: String) -> URL {
        joined(base, appending: path).url
    }

    /// `url(_:appending:)` with its string and absoluteness.
    func joined(_ base: URL, appending path: String) -> Joined {
        if let kept = entry.withLock({ $0 }), kept.path == path, kept.base == base { return kept }
        let joined = Joined(base, path)
        entry.withLock { $0 = joined }
        return joined
    }
}
