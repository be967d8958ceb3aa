import Networking

enum Accounts {
    case profile(id: Int)
    case avatar(id: Int)
}

extension Accounts: TargetType {
    var baseURL: URL { URL(string: "https://accounts.example.com/v1")! }

    var path: String {
        switch self {
        case .profile(let id): return "/users/\(id)"
        case .avatar(let id): return "/users/\(id)/avatar"
        }
    }

    var method: HTTPMethod { .get }

    var task: RequestTask { .requestPlain }

    var headers: [String: String]? { ["Accept": "application/json"] }

    var sampleData: Data {
        switch self {
        case .profile(let id): return Data(#"{"id": \#(id), "name": "Ann"}"#.utf8)
        case .avatar: return Data(repeating: 0xFF, count: 16)
        }
    }
}

struct Profile: Decodable {
    let id: Int
    let name: String
}
