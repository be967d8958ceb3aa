import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The on-disk form of one cached response: its key (checked on read), status, URL, method,
/// header fields and body.
struct CachedResponseRecord: Codable {
    static let currentVersion = 1

    var version: Int
    var key: String
    var statusCode: Int
    var url: String?
    var method: String?
    var headers: [String: String]
    var body: Data

    init(key: String, response: Response) {
        version = Self.currentVersion
        self.key = key
        statusCode = response.statusCode
        url = (response.response?.url ?? response.request?.url)?.absoluteString
        method = response.request?.httpMethod
        var headers: [String: String] = [:]
        for (name, value) in response.response?.allHeaderFields ?? [:] {
            if let name = name as? String { headers[name] = value as? String ?? String(describing: value) }
        }
        self.headers = headers
        body = response.data
    }

    /// The response again; the request carries only URL and method, the `HTTPURLResponse` only
    /// status, URL and headers.
    var response: Response {
        let url = self.url.flatMap(URL.init(string:))
        var request = url.map { URLRequest(url: $0) }
        request?.httpMethod = method
        let httpResponse = url.flatMap {
            HTTPURLResponse(url: $0, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        }
        return Response(statusCode: statusCode, data: body, request: request, response: httpResponse)
    }
}
