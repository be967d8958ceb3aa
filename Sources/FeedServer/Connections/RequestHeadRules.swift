import HTTPWire

/// What RFC 9112 section 3.2 and RFC 9110 section 7.2 ask of a request head beyond the parser's
/// syntax, checked as soon as the head is parsed (before its body is read or it is routed):
/// the target's form must be one its method takes, and an HTTP/1.1 request has exactly one
/// valid `Host` (an HTTP/1.0 one at most one). An absolute-form target is routed by its path,
/// its authority standing for `Host` (RFC 9112 section 3.2.2).
enum RequestHeadRules {
    /// Why the server refuses `head` with 400, or nil when it takes it. Reads the head in place:
    /// nothing is allocated for an acceptable one.
    static func refusal(of head: HTTPRequestHead) -> String? {
        if let problem = targetRefusal(head) { return problem }
        var hosts = 0
        var hostValue = ""
        for field in head.headers.fields where field.name.caseInsensitiveEquals("Host") {
            hosts += 1
            hostValue = field.value
        }
        if hosts > 1 { return "more than one Host field" }
        if hosts == 0 { return head.version == .http1_0 ? nil : "an HTTP/1.1 request without a Host field" }
        return hostValue.utf8.allSatisfy(isHostCharacter) ? nil : "invalid Host \(hostValue)"
    }

    /// `head` with an absolute-form target (`http://authority/path?query`) turned into its
    /// origin form (`/path?query`, `/` when the path is empty) and `Host` set to the authority;
    /// any other head as it is.
    static func originForm(_ head: HTTPRequestHead) -> HTTPRequestHead {
        guard head.target.utf8.first != UInt8(ascii: "/"), let authorityStart = absoluteFormAuthorityStart(head.target) else {
            return head
        }
        let rest = head.target[authorityStart...]
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var head = head
        head.headers.replaceOrAdd(name: "Host", value: String(rest[..<pathStart]))
        let path = rest[pathStart...]
        head.target = path.first == "/" ? String(path) : "/" + path
        return head
    }

    /// Why the target's form does not suit the method (RFC 9112 section 3.2), or nil: origin-form
    /// for any method, absolute-form (`http`/`https`) for any, asterisk-form for `OPTIONS` only,
    /// and whatever `CONNECT` names (its authority-form).
    private static func targetRefusal(_ head: HTTPRequestHead) -> String? {
        let target = head.target.utf8
        if target.first == UInt8(ascii: "/") || head.method == "CONNECT" { return nil }
        if target.elementsEqual("*".utf8) {
            return head.method == "OPTIONS" ? nil : "the target * is for OPTIONS only"
        }
        if absoluteFormAuthorityStart(head.target) != nil { return nil }
        return "the target \(head.target) is neither origin-form nor an http(s) absolute-form"
    }

    /// Where the authority of an `http://` or `https://` target (scheme in any case) starts, or nil.
    private static func absoluteFormAuthorityStart(_ target: String) -> String.Index? {
        for scheme in ["http://", "https://"] where target.utf8.count >= scheme.utf8.count {
            let end = target.utf8.index(target.utf8.startIndex, offsetBy: scheme.utf8.count)
            if ASCII.equalIgnoringCase(target.utf8[..<end], scheme.utf8) { return end }
        }
        return nil
    }

    /// RFC 3986 `host [":" port]` bytes: unreserved, sub-delims, `%` of pct-encoded, `:` and the
    /// brackets of an IP literal.
    private static func isHostCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~!$&'()*+,;=%:[]".utf8.contains(byte)
        }
    }
}
