import Foundation

/// A target whose responses may be cached under `cacheKey`.
///
/// ```swift
/// extension FeedAPI: CacheableTarget {}                          // GETs keyed by method and URL
/// extension FeedAPI: CacheableTarget { var cacheKey: String? { "feed-\(tags)" } }
/// ```
public protocol CacheableTarget: TargetType {
    /// The key of this request's cached response; `nil` never caches it.
    var cacheKey: String? { get }
}

extension CacheableTarget {
    /// `defaultCacheKey`.
    public var cacheKey: String? { defaultCacheKey }

    /// `"GET <url with its query>"` for a `GET` whose request can be built; `nil` otherwise
    /// (other methods change state or carry bodies).
    public var defaultCacheKey: String? {
        guard method == .get,
              let url = try? NetworkProvider<Self>.defaultEndpointMapping(for: self).urlRequest().url else { return nil }
        return "\(method.rawValue) \(url.absoluteString)"
    }
}
