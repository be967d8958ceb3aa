import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `Endpoint`'s `==` and `hash` compare: the request built without its upload body (an
/// upload's query parameters included), with a JSON body in canonical form, plus what the
/// upload names. An endpoint whose request cannot be built is identified by its URL and method.
struct EndpointIdentity: Hashable {
    /// What an upload sends, named without touching the disk or building a stream.
    enum Upload: Hashable {
        case none
        case file(URL)
        case parts([MultipartFormBodyPart])
        case form([MultipartFormData.PartIdentity])
    }

    let request: RequestIdentity?
    let url: String
    let method: HTTPMethod
    let upload: Upload

    init(_ endpoint: Endpoint) {
        let (task, upload) = Self.split(endpoint.task)
        request = (try? endpoint.replacing(task: task).urlRequest()).map {
            RequestIdentity($0, jsonBody: endpoint.task.hasJSONBody)
        }
        url = endpoint.url
        method = endpoint.method
        self.upload = upload
    }

    /// The task that builds the same request without the upload body, and the upload itself.
    private static func split(_ task: RequestTask) -> (RequestTask, Upload) {
        switch task {
        case .uploadFile(let file):
            return (.requestPlain, .file(file))
        case .uploadMultipart(let parts):
            return (.requestPlain, .parts(parts))
        case .uploadCompositeMultipart(let parts, let urlParameters):
            return (.requestParameters(parameters: urlParameters, encoding: URLEncoding.queryString), .parts(parts))
        case .uploadMultipartFormData(let form):
            return (.requestPlain, .form(form.partIdentities))
        case .uploadCompositeMultipartFormData(let form, let urlParameters):
            return (.requestParameters(parameters: urlParameters, encoding: URLEncoding.queryString), .form(form.partIdentities))
        default:
            return (task, .none)
        }
    }
}

/// What identifies a built request: method, URL, headers (names compared without case) and body,
/// a JSON body in canonical form when `jsonBody` says the task wrote one.
struct RequestIdentity: Hashable, Sendable {
    let method: String
    let url: String
    let headers: [String]
    let body: Data?

    init(_ request: URLRequest, jsonBody: Bool) {
        method = request.httpMethod ?? "GET"
        url = request.url?.absoluteString ?? ""
        headers = (request.allHTTPHeaderFields ?? [:]).map { "\($0.key.lowercased()):\($0.value)" }.sorted()
        body = jsonBody ? request.httpBody.map(CanonicalJSON.data) : request.httpBody
    }
}

/// A JSON text rewritten with sorted keys and no spaces, so that two encodings of one value
/// compare equal; text that is not JSON is kept as it is.
enum CanonicalJSON {
    static func data(_ text: Data) -> Data {
        guard let object = try? JSONSerialization.jsonObject(with: text, options: [.fragmentsAllowed]),
              let canonical = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return text }
        return canonical
    }
}

extension RequestTask {
    /// Whether the task writes its body with a `JSONEncoder` (whose key order may vary).
    var hasJSONBody: Bool {
        switch self {
        case .requestJSONEncodable, .requestCustomJSONEncodable: return true
        case .requestEncodableParameters(_, let encoder): return encoder is JSONParameterEncoder
        default: return false
        }
    }
}
