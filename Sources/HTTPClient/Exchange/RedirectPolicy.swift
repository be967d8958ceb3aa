import Foundation

/// Which redirects `HTTPClient` follows and how the next request looks (RFC 9110 §15.4).
///
/// 301, 302, 303, 307 and 308 with a `Location` to an `http://` or `https://` URL are followed
/// (either way between the two, as URLSession does; an `http+unix://` request may also go on to
/// another socket, as AsyncHTTPClient allows, but a network origin cannot send the client to a
/// local socket). 303 (and 301/302 after a `POST`) continue as a bodyless `GET` without the
/// fields that described the body; 307/308 repeat method and body. A `Location` without a
/// fragment inherits the request's (§10.2.2). When the origin changes (scheme, host or port, an
/// absent port being the scheme's default), `Authorization`, `Cookie` and `Proxy-Authorization`
/// stay behind, and a caller's own `Host` too (the next hop's is its own authority).
enum RedirectPolicy {
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The fields that describe a body, dropped with it when the method becomes `GET`
    /// (RFC 9110 §15.4, item 4), lower-cased.
    static let contentFields: Set<String> = [
        "content-type", "content-length", "content-encoding", "content-language", "content-location",
        "transfer-encoding", "digest", "last-modified",
    ]

    /// The fields that do not go to another origin (RFC 9110 §15.4, items 2 and 3, as
    /// AsyncHTTPClient drops them), lower-cased.
    static let originFields: Set<String> = ["authorization", "cookie", "proxy-authorization", "host"]

    /// The request to send next, or nil when `status` / `location` is not a redirect the client follows.
    static func nextRequest(after request: HTTPClientRequest, status: Int, location: String?) -> HTTPClientRequest? {
        let current = request.url
        guard statuses.contains(status), let location,
              let resolved = URL(string: location, relativeTo: current)?.absoluteURL,
              let nextScheme = resolved.scheme?.lowercased(), follows(from: current.scheme?.lowercased(), to: nextScheme) else { return nil }
        var redirected = request
        redirected.url = inheritingFragment(of: current, into: resolved)
        let method = request.normalizedMethod
        var dropped: Set<String> = []
        if (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST") {
            redirected.method = "GET"
            redirected.body = nil
            dropped = contentFields
        }
        if !resolved.hasSameOrigin(as: current) { dropped.formUnion(originFields) }
        for name in dropped { redirected.headers.remove(name: name) }
        return redirected
    }

    /// Whether a request to a URL of scheme `current` follows a redirect to one of scheme `next`
    /// (both lower-cased): `http` and `https` go on to either; `http+unix` to those and to another
    /// socket, never the other way.
    static func follows(from current: String?, to next: String) -> Bool {
        switch next {
        case "http", "https": true
        case "http+unix": current == "http+unix"
        default: false
        }
    }

    /// `next`, with `current`'s fragment when it has none of its own (RFC 9110 §10.2.2); the
    /// fragment is never sent, only kept in the URL that answered.
    static func inheritingFragment(of current: URL, into next: URL) -> URL {
        guard next.fragment(percentEncoded: true) == nil, let fragment = current.fragment(percentEncoded: true) else { return next }
        return URL(string: next.absoluteString + "#" + fragment) ?? next
    }
}
