import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The on-disk form of one cached response: its key (checked on read), status, URL, method,
/// header fields and body, and for HTTP caching the request's fields and the times its request
/// went and its response came (absent in files written before; read as the file's write).
struct CachedResponseRecord: Codable {
    static let currentVersion = 1

    var version: Int
    var key: String
    var statusCode: Int
    var url: String?
    var method: String?
    var headers: [String: String]
    var body: Data
    var requestHeaders: [String: String]?
    var requestTime: Date?
    var responseTime: Date?

    init(key: String, slot: CacheSlot) {
        let response = slot.response
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
        requestHeaders = slot.requestFields
        requestTime = slot.requestTime
        responseTime = slot.responseTime
    }

    /// The slot again; the request carries only URL and method, the `HTTPURLResponse` only
    /// status, URL and headers; the freshness is decided again by `HTTPCache` when asked.
    var slot: CacheSlot {
        let url = self.url.flatMap(URL.init(string:))
        var request = url.map { URLRequest(url: $0) }
        request?.httpMethod = method
        let httpResponse = url.flatMap {
            HTTPURLResponse(url: $0, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        }
        let response = Response(statusCode: statusCode, data: body, request: request, response: httpResponse)
        let responseTime = self.responseTime ?? Date()
        return CacheSlot(response: response, requestFields: requestHeaders ?? [:], requestTime: requestTime ?? responseTime,
                         responseTime: responseTime, freshness: nil)
    }
}
