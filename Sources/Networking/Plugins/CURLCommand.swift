import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as the curl command Alamofire's `cURLDescription()` writes: `$ curl -v`,
/// `-X METHOD`, `-H "Name: value"` per header (session headers merged under the request's,
/// names sorted), `-d "body"`, then the URL in double quotes, one per line joined by ` \` and a tab.
enum CURLCommand {
    /// The command for `request`, with the values `redactor` hides masked.
    static func text(_ request: URLRequest, sessionHeaders: [String: String], redactor: Redactor) -> String {
        guard let url = request.url, url.host != nil else { return "$ curl command could not be created" }
        var parts = ["$ curl -v", "-X \(request.httpMethod ?? "GET")"]
        for header in redactor.headers(headers(request, sessionHeaders: sessionHeaders)) {
            parts.append("-H \"\(header.name): \(header.value.replacingOccurrences(of: "\"", with: "\\\""))\"")
        }
        if let body = request.httpBody {
            let text = redactor.body(body, contentType: request.value(forHTTPHeaderField: "Content-Type"))
            let escaped = text.replacingOccurrences(of: "\\\"", with: "\\\\\"").replacingOccurrences(of: "\"", with: "\\\"")
            parts.append("-d \"\(escaped)\"")
        }
        parts.append("\"\(redactor.url(url.absoluteString))\"")
        return parts.joined(separator: " \\\n\t")
    }

    /// The session's headers with the request's own over them.
    static func headers(_ request: URLRequest, sessionHeaders: [String: String]) -> [String: String] {
        var headers = sessionHeaders
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            headers[name] = value
        }
        return headers
    }
}
