import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moya's equality: two endpoints are equal when they build the same request (method, URL,
/// headers, body) and, for uploads, send the same file or the same parts. Download
/// destinations and sample responses are closures and are not compared.
extension Endpoint: Equatable, Hashable {
    /// Whether both build the same request and upload the same thing.
    public static func == (lhs: Endpoint, rhs: Endpoint) -> Bool {
        guard lhs.sameUpload(as: rhs) else { return false }
        switch (try? lhs.urlRequest(), try? rhs.urlRequest()) {
        case (let left?, let right?):
            return RequestIdentity(left) == RequestIdentity(right)
        case (nil, nil):
            return lhs.url == rhs.url && lhs.method == rhs.method
        default:
            return false
        }
    }

    /// Hashes what `==` compares of the request.
    public func hash(into hasher: inout Hasher) {
        if let request = try? urlRequest() {
            hasher.combine(RequestIdentity(request))
        } else {
            hasher.combine(url)
            hasher.combine(method)
        }
    }

    private func sameUpload(as other: Endpoint) -> Bool {
        switch (task, other.task) {
        case (.uploadFile(let left), .uploadFile(let right)):
            return left == right
        case (.uploadMultipart(let left), .uploadMultipart(let right)),
             (.uploadCompositeMultipart(let left, _), .uploadCompositeMultipart(let right, _)):
            return left == right
        case (.uploadMultipartFormData(let left), .uploadMultipartFormData(let right)),
             (.uploadCompositeMultipartFormData(let left, _), .uploadCompositeMultipartFormData(let right, _)):
            return left === right
        default:
            return true
        }
    }
}

/// What identifies a built request for `Endpoint`'s equality; a multipart `Content-Type` is left
/// out, because each build draws a new random boundary.
private struct RequestIdentity: Hashable {
    let method: String?
    let url: URL?
    let headers: [String: String]
    let body: Data?

    init(_ request: URLRequest) {
        method = request.httpMethod
        url = request.url
        headers = (request.allHTTPHeaderFields ?? [:]).filter { name, value in
            !(name.caseInsensitiveCompare("Content-Type") == .orderedSame && value.hasPrefix("multipart/form-data"))
        }
        body = request.httpBody
    }
}
