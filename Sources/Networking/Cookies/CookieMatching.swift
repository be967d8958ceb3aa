import Foundation
import HTTPWire

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

    /// The URL's path as sent, percent-encoded (`/` when empty).
    static func requestPath(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    /// What a request's URL says for matching, read once per request.
    struct Target {
        /// The host, lower-cased.
        let host: String
        let hostIsAddress: Bool
        let path: String
        let secure: Bool

        init?(_ url: URL) {
            guard let host = url.host, !host.isEmpty else { return nil }
            self.host = host.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? host.lowercased() : host
            hostIsAddress = CookieMatching.isIPAddress(self.host)
            path = CookieMatching.requestPath(of: url)
            secure = url.scheme.map { $0.caseInsensitiveEquals("https") } ?? false
        }
    }

    /// Whether `cookie` goes with a request to `target` at `now`: domain (host-only when its
    /// domain has no leading dot, Foundation's convention), path, `Secure` only over https, not
    /// expired. Compares without allocating: it runs for every stored cookie on every request.
    static func matches(_ cookie: HTTPCookie, _ target: Target, now: Date) -> Bool {
        if cookie.isSecure && !target.secure { return false }
        if let expires = cookie.expiresDate, expires <= now { return false }
        let domain = cookie.domain.utf8
        if domain.first == UInt8(ascii: ".") {
            let bare = Substring(cookie.domain).utf8.dropFirst()
            let host = Substring(target.host).utf8
            if host.count == bare.count {
                guard ASCII.equalIgnoringCase(host, bare) else { return false }
            } else {
                guard !target.hostIsAddress, host.count > bare.count,
                      ASCII.equalIgnoringCase(host.suffix(bare.count), bare),
                      host[host.index(host.endIndex, offsetBy: -bare.count - 1)] == UInt8(ascii: ".") else { return false }
            }
        } else if !cookie.domain.caseInsensitiveEquals(target.host) {
            return false
        }
        return pathMatches(requestPath: target.path, cookiePath: cookie.path.isEmpty ? "/" : cookie.path)
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

    /// Whether `host` is an IPv6 address (it has a colon) or a dotted IPv4 address (four numbers).
    static func isIPAddress(_ host: String) -> Bool {
        var dots = 0
        var digits = 0
        for byte in host.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return true
            case UInt8(ascii: "."):
                guard digits > 0 else { return false }
                dots += 1
                digits = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            default: return false
            }
        }
        return dots == 3 && digits > 0
    }
}
