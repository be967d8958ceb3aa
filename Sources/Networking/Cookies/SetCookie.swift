import Foundation

/// One `Set-Cookie` field parsed as RFC 6265 §5.2 says (which Foundation's `HTTPCookie` on Linux
/// does only in part: it ignores `Max-Age`), with the domain and path already decided for the
/// URL that set it (§5.3). A pure value; `CookieJar` stores it.
struct SetCookie: Equatable, Sendable {
    var name: String
    var value: String
    /// The host (host-only) or the `Domain` attribute's domain, lower-cased, without a leading dot.
    var domain: String
    /// Whether only `domain` itself gets the cookie (no `Domain` attribute).
    var hostOnly: Bool
    var path: String
    var secure: Bool
    var httpOnly: Bool
    /// When it expires: from `Max-Age` (which wins) or `Expires`; nil for a session cookie.
    var expires: Date?

    /// Parses `field` as set by a response from `url`; nil when RFC 6265 says to ignore it
    /// (no `=` in the name-value pair, an empty name, a `Domain` that does not cover the host).
    init?(_ field: String, from url: URL, now: Date = Date()) {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        var parts = field.split(separator: ";", omittingEmptySubsequences: false)[...]
        guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: "=") else { return nil }
        name = Self.trimmed(pair[..<equals])
        value = Self.trimmed(pair[pair.index(after: equals)...])
        guard !name.isEmpty else { return nil }
        var domainAttribute: String?
        var pathAttribute: String?
        var maxAge: Date?
        var expiresAttribute: Date?
        secure = false
        httpOnly = false
        for part in parts {
            let attribute: String
            let attributeValue: String
            if let equals = part.firstIndex(of: "=") {
                attribute = Self.trimmed(part[..<equals]).lowercased()
                attributeValue = Self.trimmed(part[part.index(after: equals)...])
            } else {
                attribute = Self.trimmed(part).lowercased()
                attributeValue = ""
            }
            switch attribute {
            case "expires":
                if let date = HTTPDate.parse(attributeValue) { expiresAttribute = date }
            case "max-age":
                guard let first = attributeValue.first, first == "-" || Self.isDigit(first),
                      attributeValue.dropFirst().allSatisfy(Self.isDigit) else { continue }
                let seconds = Int64(attributeValue) ?? (first == "-" ? Int64.min : Int64.max)
                maxAge = seconds <= 0 ? Date.distantPast : now.addingTimeInterval(TimeInterval(min(seconds, 1 << 40)))
            case "domain":
                guard !attributeValue.isEmpty else { continue }
                let domain = attributeValue.hasPrefix(".") ? String(attributeValue.dropFirst()) : attributeValue
                domainAttribute = domain.lowercased()
            case "path":
                pathAttribute = attributeValue.hasPrefix("/") ? attributeValue : nil
            case "secure":
                secure = true
            case "httponly":
                httpOnly = true
            default:
                continue
            }
        }
        expires = maxAge ?? expiresAttribute
        if let domainAttribute, domainAttribute != host {
            // A Domain attribute must cover the host, and never for an IP address or a bare top level
            // name (`com`, or `com.` with the root's dot).
            guard CookieMatching.domainMatches(host: host, domain: domainAttribute),
                  domainAttribute.dropLast(domainAttribute.hasSuffix(".") ? 1 : 0).contains(".") else { return nil }
            domain = domainAttribute
            hostOnly = false
        } else {
            domain = host
            hostOnly = domainAttribute == nil
        }
        path = pathAttribute ?? CookieMatching.defaultPath(of: url)
    }

    /// Whether the cookie has expired at `now` (a `Max-Age` of 0 or less, an `Expires` in the past):
    /// storing it deletes the one it replaces.
    func isExpired(at now: Date) -> Bool {
        expires.map { $0 <= now } ?? false
    }

    /// The `HTTPCookie` that `HTTPCookieStorage` keeps: a host-only cookie's domain without a
    /// leading dot, a domain cookie's with one (Foundation's convention).
    var httpCookie: HTTPCookie? {
        var properties: [HTTPCookiePropertyKey: Any] = [
            .name: name, .value: value, .path: path,
            .domain: hostOnly ? domain : "." + domain,
        ]
        if secure { properties[.secure] = "TRUE" }
        if httpOnly { properties[HTTPCookiePropertyKey("HttpOnly")] = "TRUE" }
        if let expires { properties[.expires] = expires }
        return HTTPCookie(properties: properties)
    }

    /// Whether `character` is RFC 6265's DIGIT (`0`–`9`): `Character.isNumber` also takes other
    /// scripts' digits and fractions, which `Int64(_:)` then refuses.
    private static func isDigit(_ character: Character) -> Bool {
        character.asciiValue.map { (0x30...0x39).contains($0) } ?? false
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.trimmingCharacters(in: .whitespaces))
    }
}
