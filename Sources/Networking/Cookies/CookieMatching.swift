import Foundation

/// RFC 6265's matching rules (§5.1.3 domain, §5.1.4 path, §5.4 which cookies a request gets),
/// as pure functions: Foundation's `HTTPCookieStorage.cookies(for:)` on Linux ignores the path
/// and `Secure`, so `CookieJar` filters the storage's cookies with these.
enum CookieMatching {
    /// Whether `host` domain-matches `domain` (both lower-cased): equal, or a name ending in
    /// `.domain` that is not an IP address.
    static func domainMatches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        guard host.hasSuffix(domain), host.utf8.count > domain.utf8.count, !isIPAddress(host) else { return false }
        return host.utf8[host.utf8.index(host.utf8.endIndex, offsetBy: -domain.utf8.count - 1)] == UInt8(ascii: ".")
    }

    /// Whether `requestPath` path-matches `cookiePath`.
    static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        if cookiePath.hasSuffix("/") { return true }
        return requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }

    /// The default path of a cookie set by `url` (§5.1.4): its path up to, not including, the last `/`.
    static func defaultPath(of url: URL) -> String {
        let path = requestPath(of: url)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The URL's path as sent (`/` when empty).
    static func requestPath(of url: URL) -> String {
        let path = url.path
        return path.isEmpty ? "/" : path
    }

    /// Whether `cookie` goes with a request to `url` at `now`: domain (host-only when its domain
    /// has no leading dot, Foundation's convention), path, `Secure` only over https, not expired.
    static func matches(_ cookie: HTTPCookie, host: String, path: String, secure: Bool, now: Date) -> Bool {
        if cookie.isSecure && !secure { return false }
        if let expires = cookie.expiresDate, expires <= now { return false }
        let domain = cookie.domain.lowercased()
        if domain.hasPrefix(".") {
            guard domainMatches(host: host, domain: String(domain.dropFirst())) else { return false }
        } else if domain != host {
            return false
        }
        return pathMatches(requestPath: path, cookiePath: cookie.path.isEmpty ? "/" : cookie.path)
    }

    /// `name=value` pairs for a `Cookie` field: longer paths first (§5.4), then by name (the
    /// storage keeps no creation time to order by, and its order is not stable).
    static func headerValue(_ cookies: [HTTPCookie]) -> String? {
        guard !cookies.isEmpty else { return nil }
        let ordered = cookies.count == 1 ? cookies : cookies.sorted { lhs, rhs in
            lhs.path.utf8.count != rhs.path.utf8.count ? lhs.path.utf8.count > rhs.path.utf8.count : lhs.name < rhs.name
        }
        return ordered.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
