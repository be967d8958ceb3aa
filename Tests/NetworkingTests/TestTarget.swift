import Foundation
import Networking

/// A configurable target for tests.
struct TestTarget: TargetType, AccessTokenAuthorizable {
    var baseURL = URL(string: "http://127.0.0.1:8080/api")!
    var path = "/items"
    var method = HTTPMethod.get
    var task = RequestTask.requestPlain
    var headers: [String: String]? = nil
    var authorizationType: AuthorizationType? = nil
}

/// A target that keeps the protocol's defaults.
struct MinimalTarget: TargetType {
    var baseURL: URL { URL(string: "http://127.0.0.1/")! }
    var path: String { "" }
    var method: HTTPMethod { .get }
    var task: RequestTask { .requestPlain }
    var headers: [String: String]? { nil }
}

extension Data {
    var utf8Text: String { String(decoding: self, as: UTF8.self) }

    /// Every byte `stream` yields (a request's `httpBodyStream`).
    init(reading stream: InputStream) {
        self.init()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            append(buffer, count: count)
        }
    }
}

func endpoint(_ task: RequestTask, method: HTTPMethod = .get, url: String = "http://127.0.0.1:8080/api/items",
              headers: [String: String]? = nil) -> Endpoint {
    Endpoint(url: url, sampleResponseClosure: { .networkResponse(200, Data()) }, method: method, task: task,
             httpHeaderFields: headers)
}
