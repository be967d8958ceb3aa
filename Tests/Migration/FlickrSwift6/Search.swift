import Networking

enum Search: TargetType {
    case photos(tags: String)

    var baseURL: URL { URL(string: "https://api.flickr.com/services/feeds")! }

    var path: String { "/photos_public.gne" }

    var method: HTTPMethod { .get }

    var task: RequestTask {
        switch self {
        case .photos(let tags):
            let parameters: [String: any Sendable] = ["tags": tags, "tagmode": "any", "format": "json", "nojsoncallback": 1]
            return .requestParameters(parameters: parameters, encoding: URLEncoding.default)
        }
    }

    var headers: [String: String]? { nil }
}
