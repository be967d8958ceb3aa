import Networking

/// The app's own Flickr target, with its hard-coded base URL.
enum Photos: TargetType {
    case recent(tags: String)

    var baseURL: URL { URL(string: "https://api.flickr.com/services/feeds")! }

    var path: String { "/photos_public.gne" }

    var method: HTTPMethod { .get }

    var task: RequestTask {
        switch self {
        case .recent(let tags):
            return .requestParameters(parameters: ["tags": tags, "format": "json", "nojsoncallback": 1],
                                      encoding: URLEncoding.queryString)
        }
    }

    var headers: [String: String]? { nil }
}
