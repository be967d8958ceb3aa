import Foundation

/// Which redirects `HTTPClient` follows and how the next request looks.
///
/// 301, 302, 303, 307 and 308 with a `Location` to another `http://` or `https://` URL are
/// followed (either way between the two, as URLSession does); 303 (and 301/302 after a `POST`)
/// continue as a bodyless `GET`, 307/308 repeat method and body. `Authorization` and `Cookie` are
/// dropped when the scheme, host or port changes.
enum RedirectPolicy {
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send next, or nil when `status` / `location` is not a redirect the client follows.
    static func nextRequest(after request: HTTPClientRequest, status: Int, location: String?) -> HTTPClientRequest? {
        let current = request.url
        guard statuses.contains(status), let location,
              let next = URL(string: location, relativeTo: current)?.absoluteURL,
              let nextScheme = next.scheme?.lowercased(), nextScheme == "http" || nextScheme == "https" || nextScheme == "http+unix" else { return nil }
        var redirected = request
        redirected.url = next
        let method = request.normalizedMethod
        var dropped: Set<String> = []
        if (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST") {
            redirected.method = "GET"
            redirected.body = nil
            dropped = ["content-type", "content-length"]
        }
        if next.host?.lowercased() != current.host?.lowercased() || next.port != current.port
            || nextScheme != current.scheme?.lowercased() {
            dropped.formUnion(["authorization", "cookie"])
        }
        for name in dropped { redirected.headers.remove(name: name) }
        return redirected
    }
}
