import Networking

enum Flickr {
    case publicPhotos(tags: String)
}

extension Flickr: TargetType {
    var baseURL: URL { URL(string: "https://api.flickr.com/services/feeds")! }

    var path: String { "/photos_public.gne" }

    var method: HTTPMethod { .get }

    var task: RequestTask {
        switch self {
        case .publicPhotos(let tags):
            let parameters: [String: Any] = ["tags": tags, "tagmode": "any", "format": "json", "nojsoncallback": 1]
            return .requestParameters(parameters: parameters, encoding: URLEncoding.default)
        }
    }

    var headers: [String: String]? { ["Accept": "application/json"] }

    var sampleData: Data {
        Data(#"""
        {"title": "Uploads from everyone", "link": "https://www.flickr.com/photos/", "items": [
          {"title": "Rock \'n\' roll", "link": "https://www.flickr.com/photos/ann/1/", "media": {"m": "https://live.staticflickr.com/1_m.jpg"},
           "date_taken": "2024-05-01T10:00:00-08:00", "description": "", "published": "2024-05-02T10:00:00Z",
           "author": "nobody@flickr.com (\"ann\")", "author_id": "1@N01", "tags": "music"},
          {"title": "Sunset", "link": "https://www.flickr.com/photos/bo/2/", "media": {"m": "https://live.staticflickr.com/2_m.jpg"},
           "date_taken": "2024-05-03T19:00:00-08:00", "description": "", "published": "2024-05-04T10:00:00Z",
           "author": "nobody@flickr.com (\"bo\")", "author_id": "2@N01", "tags": "sky"}
        ]}
        """#.utf8)
    }
}
