import Foundation

extension URL {
    /// The target's URL, as Moya's `URL(target:)`: `baseURL` with `path` appended, or `baseURL`
    /// alone when `path` is empty.
    public init(target: some TargetType) {
        self = JoinedURL.last.url(target.baseURL, appending: target.path)
    }
}
