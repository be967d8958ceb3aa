import Foundation
import Networking

/// The target of one picture file: a `GET` of `url` as it is (a photo's `media.m`), cacheable
/// under `GET <url>`.
///
/// ```swift
/// let provider = NetworkProvider<PhotoImage>(trackInflights: true)
/// provider.rx.request(PhotoImage(url: url))
/// ```
public struct PhotoImage: TargetType, CacheableTarget, Hashable {
    /// The picture's address.
    public let url: URL

    /// The target of the picture at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The picture's address (the whole URL; `path` is empty).
    public var baseURL: URL { url }
    /// Empty: `url` is requested as it is.
    public var path: String { "" }
    /// `GET`.
    public var method: HTTPMethod { .get }
    /// No parameters or body.
    public var task: RequestTask { .requestPlain }
    /// Asks for a JPEG.
    public var headers: [String: String]? { ["Accept": "image/jpeg"] }
    /// Any 2xx answer is a picture; others fail with `ProviderError.statusCode`.
    public var validationType: ValidationType { .successCodes }
}
