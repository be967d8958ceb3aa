import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which redirects `SocketTransport` follows and how the next request looks.
///
/// 301, 302, 303, 307 and 308 with a `Location` to another `http://` URL are followed; 303
/// (and 301/302 after a `POST`) continue as a bodyless `GET`, 307/308 repeat method and body.
/// `Authorization` and `Cookie` are dropped when the host or port changes.
enum RedirectPolicy {
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send next, or nil when `status` / `location` is not a redirect this transport follows.
    static func nextRequest(after request: URLRequest, status: Int, location: String?) -> URLRequest? {
        guard statuses.contains(status), let location, let current = request.url,
              let next = URL(string: location, relativeTo: current)?.absoluteURL,
              next.scheme?.lowercased() == "http", current.scheme?.lowercased() == "http" else { return nil }
        var redirected = request
        redirected.url = next
        let method = SocketRequestEncoding.method(of: request)
        if (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST") {
            redirected.httpMethod = "GET"
            redirected.httpBodyStream = nil
            redirected.httpBody = nil
            redirected.setValue(nil, forHTTPHeaderField: "Content-Type")
            redirected.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        if next.host?.lowercased() != current.host?.lowercased() || next.port != current.port {
            redirected.setValue(nil, forHTTPHeaderField: "Authorization")
            redirected.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        return redirected
    }
}
