// libFuzzer entry for the parsers of the fields a server sends that the session layer reads
// (`SocketTransport`'s cache and cookies): `HTTPDate` (`Date`, `Expires`, `Last-Modified`,
// cookies' `Expires`), `CacheControl`, the cache's freshness and storability of an answer's
// fields, and `SetCookie`. `scripts/fuzz.sh fields` builds it with `-sanitize=fuzzer,address`
// and `-parse-as-library`. A plain `swift build` links an executable that does nothing. The
// parsers are internal: the debug build SwiftPM makes for the fuzzer compiles the module for
// testing, hence `@testable`, and a release build (whose modules are not) compiles none of this
// file.
//
// Each input:
//   byte 0      bits 0-1: what the rest is: one date, one `Cache-Control` value, one
//               `Set-Cookie` value, or an answer's fields (`Name: value` lines)
//   the rest    that text, as UTF-8 (invalid sequences replaced)
#if DEBUG || FUZZING
import Foundation
@testable import Networking

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionFields(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    guard let selector = input.first else { return 0 }
    let text = String(decoding: input.dropFirst(), as: UTF8.self)
    switch selector & 3 {
    case 0: checkDate(text)
    case 1: _ = CacheControl(text)
    case 2: checkCookie(text)
    default: checkFields(text)
    }
    return 0
}

/// When it was asked: a fixed instant, so an input always meets the same clock.
let now = Date(timeIntervalSince1970: 1_764_800_000)

/// A date read is the date its IMF-fixdate form reads as (so no read overflows or lands
/// outside the years the form can write), and writing it does not trap.
func checkDate(_ text: String) {
    guard let date = HTTPDate.parse(text) else { return }
    let written = HTTPDate.format(date)
    guard HTTPDate.parse(written) == date else { fatalError("\(text) reads as \(date), written \(written), which reads otherwise") }
}

/// The URL that set the cookie.
let cookieURL = URL(string: "https://www.example.com/dir/page") ?? URL(fileURLWithPath: "/")

/// A cookie read has a name, a path from the root, and a domain that is the host's or one the
/// host domain-matches (never another site's, never a bare top-level name); storing and
/// matching it does not trap.
func checkCookie(_ text: String) {
    guard let cookie = SetCookie(text, from: cookieURL, now: now) else { return }
    guard !cookie.name.isEmpty else { fatalError("a cookie without a name from \(text)") }
    guard cookie.path.hasPrefix("/") else { fatalError("the path \(cookie.path) from \(text)") }
    let host = "www.example.com"
    guard cookie.domain == host || (CookieMatching.domainMatches(host: host, domain: cookie.domain) && cookie.domain.contains(".")) else {
        fatalError("the domain \(cookie.domain) from \(text)")
    }
    guard let stored = cookie.httpCookie, let target = CookieMatching.Target(cookieURL) else { return }
    _ = CookieMatching.matches(stored, target, now: now)
    _ = CookieMatching.headerValue([stored])
}

/// An answer's fields: its freshness, whether it may be stored, and a 304 merged into it, for a
/// few statuses; none traps, a lifetime is a number and an age is never negative.
func checkFields(_ text: String) {
    var fields: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    for status in [200, 301, 404] {
        let freshness = CacheFreshness(status: status, fields: fields, requestFields: ["accept-language": "en"],
                                       requestTime: now, responseTime: now.addingTimeInterval(1))
        guard !freshness.lifetime.isNaN, freshness.initialAge >= 0 else {
            fatalError("lifetime \(freshness.lifetime), age \(freshness.initialAge) from \(fields)")
        }
        _ = CacheFreshness.isStorable(method: "GET", requestFields: [:], status: status, fields: fields)
    }
    _ = CacheFreshness.updated(["content-length": "5", "etag": "\"a\""], with: fields)
}
#endif
