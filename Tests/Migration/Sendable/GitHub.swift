import Foundation
import Networking

enum GitHub {
    case user(String)
    case repos(String)
}

extension GitHub: TargetType {
    var baseURL: URL { URL(string: "https://api.github.com")! }

    var path: String {
        switch self {
        case .user(let name): return "/users/\(name)"
        case .repos(let name): return "/users/\(name)/repos"
        }
    }

    var method: HTTPMethod { .get }

    var task: RequestTask {
        switch self {
        case .user: return .requestPlain
        case .repos: return .requestParameters(parameters: ["per_page": 30], encoding: URLEncoding.queryString)
        }
    }

    var headers: [String: String]? { ["Accept": "application/vnd.github+json"] }

    var sampleData: Data {
        switch self {
        case .user: return Data(#"{"login": "octocat", "name": "The Octocat"}"#.utf8)
        case .repos: return Data(#"[{"name": "Hello-World", "stargazers_count": 42}]"#.utf8)
        }
    }
}

struct User: Decodable {
    let login: String
    let name: String?
}

struct Repo: Decodable {
    let name: String
    let stargazersCount: Int
}
