import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire

/// Cookies for a transport with URLSession's semantics, over an `HTTPCookieStorage` (code that
/// seeds or reads the storage keeps working): which cookies a request carries (RFC 6265 §5.4:
/// domain, path, `Secure` only over https, expiry) and what a response's `Set-Cookie` fields
/// store (§5.2–5.3: `Max-Age` and `Expires`, an expired cookie deleting the one it replaces),
/// as the accept policy allows.
struct CookieJar: @unchecked Sendable {
    // @unchecked: `HTTPCookieStorage` is thread-safe (documented so) but not marked `Sendable` on every SDK.
    /// Where cookies live.
    let storage: HTTPCookieStorage
    /// Which cookies are accepted; nil follows the storage's own `cookieAcceptPolicy`.
    let acceptPolicy: HTTPCookie.AcceptPolicy?
    /// Whether requests carry stored cookies (`URLSessionConfiguration.httpShouldSetCookies`).
    let setsCookies: Bool

    /// The `Cookie` field for a request to `url`, nil when no stored cookie matches. As
    /// URLSession on Linux does, stored cookies replace a `Cookie` field the request set itself
    /// when there are any, and leave it alone otherwise.
    /// `now` defaults to the time the storage is found to hold cookies (the clock is not read
    /// for an empty one).
    func cookieHeader(for url: URL, now: Date? = nil) -> String? {
        guard setsCookies, let cookies = storage.cookies, !cookies.isEmpty, let target = CookieMatching.Target(url) else { return nil }
        let now = now ?? Date()
        return CookieMatching.headerValue(cookies.filter { CookieMatching.matches($0, target, now: now) })
    }

    /// Stores the cookies of `fields` (`Set-Cookie` values) that a response from `url` set, as
    /// the accept policy allows (`onlyFromMainDocumentDomain`: the cookie's domain must cover the
    /// main document's host, `url` itself when there is none).
    func store(_ fields: [String], from url: URL, mainDocumentURL: URL?, now: Date = Date()) {
        guard !fields.isEmpty else { return }
        let policy = acceptPolicy ?? storage.cookieAcceptPolicy
        guard policy != .never else { return }
        let mainHost = (mainDocumentURL ?? url).host?.lowercased() ?? ""
        for field in fields {
            guard let cookie = SetCookie(field, from: url, now: now) else { continue }
            if policy == .onlyFromMainDocumentDomain, !CookieMatching.domainMatches(host: mainHost, domain: cookie.domain) { continue }
            if cookie.isExpired(at: now) {
                let domain = cookie.hostOnly ? cookie.domain : "." + cookie.domain
                for stored in storage.cookies ?? [] where stored.name == cookie.name && stored.path == cookie.path
                    && stored.domain.lowercased() == domain {
                    storage.deleteCookie(stored)
                }
            } else if let made = cookie.httpCookie {
                storage.setCookie(made)
            }
        }
    }

    /// What a redirect from `from` to `to` does (URLSession's semantics, each hop on its own):
    /// stores the redirect's `Set-Cookie` fields `fields`, then gives the next hop's `headers` the
    /// cookies that match `to`. When none do, a `Cookie` field this jar set for `from` goes (its
    /// cookies need not match `to`'s path, §5.4); a caller's own field, which no stored cookie
    /// replaced, stays, as URLSession on Linux keeps it.
    func followRedirect(storing fields: [String], from: URL, to: URL, mainDocumentURL: URL?, headers: inout HTTPHeaders) {
        // The jar's field for `from` is found before the redirect's own cookies change it.
        let setForFrom = headers["Cookie"].map { sent in cookieHeader(for: from) == sent } ?? false
        store(fields, from: from, mainDocumentURL: mainDocumentURL)
        if let cookies = cookieHeader(for: to) {
            headers.replaceOrAdd(name: "Cookie", value: cookies)
        } else if setForFrom {
            headers.remove(name: "Cookie")
        }
    }

    /// Whether `request` to `url` (its URL) takes part: its own `httpShouldHandleCookies` and an
    /// http(s) URL.
    static func handles(_ request: URLRequest, url: URL) -> Bool {
        guard let scheme = url.scheme, scheme.caseInsensitiveEquals("http") || scheme.caseInsensitiveEquals("https") else {
            return false
        }
        return request.httpShouldHandleCookies
    }
}
