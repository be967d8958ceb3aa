import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking

/// A target whose sample responses the tests choose.
enum StubbedAPI: TargetType {
    case ok
    case status(Int, body: String)
    case failing(URLError.Code)
    case validated(Int)

    var baseURL: URL { URL(string: "https://api.example.test")! }

    var path: String {
        switch self {
        case .ok: return "ok"
        case .status(let code, _): return "status/\(code)"
        case .failing: return "failing"
        case .validated(let code): return "validated/\(code)"
        }
    }

    var method: HTTPMethod { .get }
    var task: RequestTask { .requestPlain }
    var headers: [String: String]? { ["Accept": "application/json"] }
    var sampleData: Data { Data(#"{"name":"stub"}"#.utf8) }

    var validationType: ValidationType {
        if case .validated = self { return .successCodes }
        return .none
    }

    func sampleResponse() -> EndpointSampleResponse {
        switch self {
        case .ok: return .networkResponse(200, sampleData)
        case .status(let code, let body): return .networkResponse(code, Data(body.utf8))
        case .failing(let code): return .networkError(URLError(code))
        case .validated(let code): return .networkResponse(code, Data(#"{"code":"NF","message":"missing"}"#.utf8))
        }
    }
}

/// A target pointing at a live `FeedServer` route.
struct ServerRoute: TargetType {
    let baseURL: URL
    let path: String
    var method: HTTPMethod = .get
    var task: RequestTask = .requestPlain
    var headers: [String: String]? = nil
}

/// The sample data of the targets, as an endpoint closure.
@Sendable
func stubbedEndpoint(_ target: StubbedAPI) -> Endpoint {
    let sample = target.sampleResponse()
    return Endpoint(target: target, sampleResponseClosure: { sample })
}

/// Decoded body of the stubs and of `/echo`.
struct Named: Decodable, Equatable, Sendable {
    let name: String
}
