import Foundation
import Networking

/// Flickr's public photo feed as a target.
///
/// ```swift
/// let provider = NetworkProvider<FlickrAPI>()
/// provider.rx.request(.publicPhotos(PhotoRequest(tags: "cats")))
/// ```
///
/// To talk to another server answering `services/feeds/photos_public.gne` (a `FeedServer`,
/// a proxy), give the provider ``endpointClosure(baseURL:)``.
public enum FlickrAPI: TargetType, Equatable {
    /// `GET services/feeds/photos_public.gne` with the request's query.
    case publicPhotos(PhotoRequest)

    /// `https://api.flickr.com`.
    public static let defaultBaseURL = URL(fixed: "https://api.flickr.com")

    /// The feed's path below the base URL.
    public static let feedPath = "services/feeds/photos_public.gne"

    /// `https://api.flickr.com`.
    public var baseURL: URL { Self.defaultBaseURL }

    /// `services/feeds/photos_public.gne`.
    public var path: String {
        switch self {
        case .publicPhotos: return Self.feedPath
        }
    }

    /// `GET`.
    public var method: HTTPMethod { .get }

    /// `tags`, `tagmode`, `format`, `nojsoncallback` in the query string.
    public var task: RequestTask {
        switch self {
        case .publicPhotos(let request):
            return .requestParameters(parameters: request.queryParameters, encoding: URLEncoding.queryString)
        }
    }

    /// No extra header fields.
    public var headers: [String: String]? { nil }

    /// ``FlickrSampleFeed/json``, a small hand-made feed with the escapes real feeds carry.
    public var sampleData: Data { Data(FlickrSampleFeed.json.utf8) }

    /// An endpoint closure that sends every target to `baseURL` instead of Flickr, keeping path,
    /// query, method and sample data.
    ///
    /// ```swift
    /// NetworkProvider<FlickrAPI>(endpointClosure: FlickrAPI.endpointClosure(baseURL: server.baseURL))
    /// ```
    public static func endpointClosure(baseURL: URL) -> NetworkProvider<FlickrAPI>.EndpointClosure {
        { target in Endpoint(target: target, baseURL: baseURL) }
    }
}
